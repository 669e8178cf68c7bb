export enum Color { Red, Green, Blue }
export namespace Geometry {
  export function square(side: number): number { return side * side; }
}
