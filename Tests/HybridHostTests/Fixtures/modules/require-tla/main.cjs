try {
  require("./slow.mjs");
} catch (error) {
  console.log(error.code);
}
