export interface Line { sku: string; price: number; quantity: number }

export class Cart {
  count = 0;
  constructor(private readonly lines: Line[]) {
    this.count = lines.length;
  }
  total(): number {
    return this.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  }
}
