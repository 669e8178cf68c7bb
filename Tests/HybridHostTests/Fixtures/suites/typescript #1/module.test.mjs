import { twice } from "./twice.mjs";

test("an ES module test file imports", () => {
  expect(twice(2)).toBe(4);
});
