const add = (a, b) => a + b;

test("adds numbers", () => {
  expect(add(2, 3)).toBe(5);
});

describe("bridge", () => {
  test("echo answers", async () => {
    await expect(Hybrid.call("bridge", "echo", { n: 1 })).resolves.toEqual({ n: 1 });
  });
});
