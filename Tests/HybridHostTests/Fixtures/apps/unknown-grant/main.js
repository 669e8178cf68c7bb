console.log("must not run");
