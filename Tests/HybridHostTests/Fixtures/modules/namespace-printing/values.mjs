export const zebra = 1;
export default { title: "d" };
export function alpha() {}
export let list = [1, 2, 3];
