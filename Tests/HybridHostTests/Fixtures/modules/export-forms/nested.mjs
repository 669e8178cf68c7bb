export const inner = "inner";
export const value = 42;
