test("never registered", () => {});
const x = ;
