export const value = await Promise.resolve(1);
