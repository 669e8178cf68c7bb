"use strict";
// navigator, as the HTML Standard's Navigator has it where a runtime has no browser around it
// (node and Deno ship the same subset): the user agent naming the host and its version, the
// user's language from the environment's locale, the CPUs online, and onLine, always true (the
// host does not watch the network). `native.info()` gives the values, read once.

const info = native.info();
const languages = Object.freeze([...info.languages]);
const illegal = Symbol("Navigator");
let navigatorObject;

function check(value, member) {
  if (value !== navigatorObject) throw new TypeError(`Navigator.prototype.${member}: 'this' is not a Navigator (Illegal invocation)`);
}

class Navigator {
  constructor(key = undefined) {
    if (key !== illegal) throw new TypeError("Illegal constructor");
  }

  get userAgent() { check(this, "userAgent"); return info.userAgent; }
  get platform() { check(this, "platform"); return info.platform; }
  get language() { check(this, "language"); return info.language; }
  // A FrozenArray attribute: the same array at every read.
  get languages() { check(this, "languages"); return languages; }
  get hardwareConcurrency() { check(this, "hardwareConcurrency"); return info.hardwareConcurrency; }
  get onLine() { check(this, "onLine"); return true; }
}
for (const name of ["userAgent", "platform", "language", "languages", "hardwareConcurrency", "onLine"]) {
  Object.defineProperty(Navigator.prototype, name, { enumerable: true });
}
Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: "Navigator", configurable: true });

navigatorObject = new Navigator(illegal);
define("Navigator", Navigator);
define("navigator", navigatorObject);
internals.platformObjects.register((value) => value === navigatorObject, null);
