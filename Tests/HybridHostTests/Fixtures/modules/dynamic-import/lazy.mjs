console.log("lazy evaluates");
export const value = await Promise.resolve(7);
export default "lazy default";
