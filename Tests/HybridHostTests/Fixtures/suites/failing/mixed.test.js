test("passes", () => {
  expect([1, 2]).toEqual([1, 2]);
});

test("fails on purpose", () => {
  expect({ qty: 1 }).toEqual({ qty: 2 });
});
