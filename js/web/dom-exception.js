"use strict";
// DOMException, as Web IDL defines it: a name and a message, the legacy code of the names that
// have one, and Error.prototype above its prototype (so `instanceof Error` holds and the stack is
// there), while the constructor itself is a plain function, not a subclass of Error.

const LEGACY_CODES = [
  ["IndexSizeError", "INDEX_SIZE_ERR", 1], [null, "DOMSTRING_SIZE_ERR", 2],
  ["HierarchyRequestError", "HIERARCHY_REQUEST_ERR", 3], ["WrongDocumentError", "WRONG_DOCUMENT_ERR", 4],
  ["InvalidCharacterError", "INVALID_CHARACTER_ERR", 5], [null, "NO_DATA_ALLOWED_ERR", 6],
  ["NoModificationAllowedError", "NO_MODIFICATION_ALLOWED_ERR", 7], ["NotFoundError", "NOT_FOUND_ERR", 8],
  ["NotSupportedError", "NOT_SUPPORTED_ERR", 9], ["InUseAttributeError", "INUSE_ATTRIBUTE_ERR", 10],
  ["InvalidStateError", "INVALID_STATE_ERR", 11], ["SyntaxError", "SYNTAX_ERR", 12],
  ["InvalidModificationError", "INVALID_MODIFICATION_ERR", 13], ["NamespaceError", "NAMESPACE_ERR", 14],
  ["InvalidAccessError", "INVALID_ACCESS_ERR", 15], [null, "VALIDATION_ERR", 16],
  ["TypeMismatchError", "TYPE_MISMATCH_ERR", 17], ["SecurityError", "SECURITY_ERR", 18],
  ["NetworkError", "NETWORK_ERR", 19], ["AbortError", "ABORT_ERR", 20],
  ["URLMismatchError", "URL_MISMATCH_ERR", 21], ["QuotaExceededError", "QUOTA_EXCEEDED_ERR", 22],
  ["TimeoutError", "TIMEOUT_ERR", 23], ["InvalidNodeTypeError", "INVALID_NODE_TYPE_ERR", 24],
  ["DataCloneError", "DATA_CLONE_ERR", 25],
];
let isDOMException;
const codeOfName = new Map(LEGACY_CODES.filter(([name]) => name !== null).map(([name, , code]) => [name, code]));

class DOMException {
  #name;
  #message;

  constructor(message = undefined, options = undefined) {
    this.#message = message === undefined ? "" : `${message}`;
    if (options !== null && (typeof options === "object" || typeof options === "function")) {
      const name = options.name;
      this.#name = name === undefined ? "Error" : `${name}`;
      if ("cause" in options) {
        Object.defineProperty(this, "cause", { value: options.cause, writable: true, enumerable: false, configurable: true });
      }
    } else {
      this.#name = options === undefined ? "Error" : `${options}`;
    }
    // The stack an Error made here would have, less this constructor's own frame.
    const stack = new Error(this.#message).stack ?? "";
    Object.defineProperty(this, "stack", {
      value: stack.split("\n").slice(1).join("\n"),
      writable: true, enumerable: false, configurable: true,
    });
  }

  get name() {
    return brand(this, "name").#name;
  }

  get message() {
    return brand(this, "message").#message;
  }

  get code() {
    return codeOfName.get(brand(this, "code").#name) ?? 0;
  }

  static {
    isDOMException = (value) => value !== null && typeof value === "object" && #name in value;
  }
}

function brand(value, member) {
  if (!isDOMException(value)) {
    throw new TypeError(`DOMException.prototype.${member}: 'this' is not a DOMException`);
  }
  return value;
}

Object.setPrototypeOf(DOMException.prototype, Error.prototype);
for (const member of ["name", "message", "code"]) {
  Object.defineProperty(DOMException.prototype, member, { enumerable: true });
}
for (const [, constant, code] of LEGACY_CODES) {
  const descriptor = { value: code, writable: false, enumerable: true, configurable: false };
  Object.defineProperty(DOMException, constant, descriptor);
  Object.defineProperty(DOMException.prototype, constant, descriptor);
}
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: "DOMException", configurable: true });

define("DOMException", DOMException);
internals.provide("isDOMException", isDOMException);
internals.platformObjects.register(isDOMException, (exception) => {
  const copy = new DOMException(exception.message, exception.name);
  Object.defineProperty(copy, "stack", { value: exception.stack, writable: true, enumerable: false, configurable: true });
  return copy;
});
