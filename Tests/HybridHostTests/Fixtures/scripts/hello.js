// Prints its arguments and answers a bridge call.
Hybrid.call("bridge", "echo", { args: Hybrid.args }).then((answer) => {
  console.log(`hello ${answer.args.join(" ")}`);
});
