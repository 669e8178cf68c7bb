export let count = 0;
export function increment() { count += 1; }
export const reset = () => { count = 0; };
