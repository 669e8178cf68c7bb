// A TypeScript test file whose top-level await must finish before its tests run.
interface Line { price: number; quantity: number }
const lines: Line[] = await Promise.resolve([{ price: 2, quantity: 3 }]);

describe("cart # totals", () => {
  test("sums lines", () => {
    expect(lines.reduce((sum, line) => sum + line.price * line.quantity, 0)).toBe(6);
  });
});
