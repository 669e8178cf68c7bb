console.log("slow starts");
export const value = await new Promise((resolve) => setTimeout(() => resolve(1), 5));
console.log("slow done");
