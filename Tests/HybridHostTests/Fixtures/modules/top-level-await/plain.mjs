console.log("plain evaluates");
export const plain = "plain";
