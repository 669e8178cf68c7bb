Object.defineProperty(exports, "__esModule", { value: true });
exports.default = { value: "default of a transpiled module" };
