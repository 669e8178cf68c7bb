import { Cart, type Line } from "./cart";
import { Color, Geometry } from "./shapes.ts";

const lines: Line[] = [{ sku: "a", price: 2, quantity: 3 }, { sku: "b", price: 1.5, quantity: 2 }];
const cart = new Cart(lines);
console.log(cart.total(), cart.count);
console.log(Color.Green, Color[Color.Blue], Geometry.square(3));
const config = await import("./config.json", { assert: { type: "json" } });
console.log(config.default.currency);
