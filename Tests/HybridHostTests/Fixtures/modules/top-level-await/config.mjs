console.log("config starts");
await new Promise((resolve) => setTimeout(resolve, 10));
export const config = { ready: true };
console.log("config ready");
