export const where = "esm .js under type: module";
