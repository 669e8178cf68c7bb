export const star = "from star";
