const total = 1;
const broken = (;
console.log(total);
