// Blob, File and FormData as H5 code meets them (js/web/blob.js). WebBlobTests compares the
// multipart/form-data body a FormData becomes with node's; the web-platform-tests' FileAPI/ holds
// the standard's own cases (scripts/wpt FileAPI).

const bytesOf = (blob) => blob.bytes().then((bytes) => Array.from(bytes));

describe("Blob", () => {
  test("is installed lazily, as a Web IDL interface", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "FormData");
    expect(typeof before.get).toBe("function");
    expect([Blob.length, File.length, FormData.length]).toEqual([0, 2, 0]);
    const after = Object.getOwnPropertyDescriptor(globalThis, "Blob");
    expect([after.writable, after.enumerable, after.configurable]).toEqual([true, false, true]);
    expect(Object.keys(Blob.prototype)).toEqual(["size", "type", "slice", "stream", "text", "arrayBuffer", "bytes"]);
    expect(Object.prototype.toString.call(new Blob())).toBe("[object Blob]");
    // stream() loads the streams only when it is called (web-compression.test.js reads one).
    expect(typeof Object.getOwnPropertyDescriptor(globalThis, "ReadableStream").get).toBe("function");
  });

  test("joins strings (UTF-8, lone surrogates as U+FFFD), buffers, views and blobs", async () => {
    const buffer = new Uint8Array([1, 2, 3, 4]).buffer;
    const blob = new Blob(["é", "\ud800", buffer, new DataView(buffer, 1, 2), new Uint16Array([0x0201]), new Blob(["z"])]);
    expect(blob.size).toBe(2 + 3 + 4 + 2 + 2 + 1);
    expect(await bytesOf(blob)).toEqual([0xc3, 0xa9, 0xef, 0xbf, 0xbd, 1, 2, 3, 4, 2, 3, 1, 2, 0x7a]);
    // The bytes were copied when the blob was made: changing the buffer changes nothing.
    new Uint8Array(buffer)[0] = 9;
    expect((await bytesOf(blob))[5]).toBe(1);
    expect(await new Blob([1, null, { toString: () => "x" }]).text()).toBe("1nullx");
  });

  test("type is lowercased, and empty unless printable ASCII; endings: native turns line breaks into LF", async () => {
    expect(new Blob([], { type: "Text/HTML;Charset=UTF-8" }).type).toBe("text/html;charset=utf-8");
    expect(new Blob([], { type: "text/é" }).type).toBe("");
    expect(new Blob([], { type: "a\tb" }).type).toBe("");
    expect(await new Blob(["a\r\nb\rc\n"], { endings: "native" }).text()).toBe("a\nb\nc\n");
    expect(await new Blob(["a\r\nb"]).text()).toBe("a\r\nb");
    expect(() => new Blob([], { endings: "crlf" })).toThrow(/endings.*EndingType/);
    expect(() => new Blob("abc")).toThrow(TypeError);
    expect(() => new Blob({})).toThrow(/@@iterator/);
    expect(() => new Blob(null)).toThrow(/cannot be converted to a sequence/);
    expect(await new Blob(new Set(["a", "b"])).text()).toBe("ab");
  });

  test("text() decodes UTF-8, dropping a leading BOM and replacing what is invalid; arrayBuffer() and bytes() copy", async () => {
    expect(await new Blob([new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xff, 0x69])]).text()).toBe("h\ufffdi");
    // Each result is a string of its own: a later read does not change an earlier one.
    const texts = await Promise.all([new Blob(["first \xe9"]).text(), new Blob(["second \xfc"]).text()]);
    expect(texts).toEqual(["first \xe9", "second \xfc"]);
    const blob = new Blob(["abc"]);
    const a = await blob.arrayBuffer();
    const b = await blob.bytes();
    expect(a instanceof ArrayBuffer && b instanceof Uint8Array && a !== b.buffer).toBe(true);
    b[0] = 0;
    expect(await blob.text()).toBe("abc");
  });

  test("a read on what is not a Blob rejects rather than throws", async () => {
    const promise = Blob.prototype.text.call({});
    expect(promise instanceof Promise).toBe(true);
    await expect(promise).rejects.toThrow(/'this' is not a Blob/);
    expect(() => Blob.prototype.slice.call({})).toThrow(TypeError);
    expect(() => Object.getOwnPropertyDescriptor(Blob.prototype, "size").get.call({})).toThrow(/not a Blob/);
  });

  test("slice(): negative indexes count from the end, the range is clamped, contentType normalized", async () => {
    const blob = new Blob(["0123", "4567", "89"], { type: "text/plain" });
    expect(await blob.slice(2, 7).text()).toBe("23456");
    expect(await blob.slice(-3).text()).toBe("789");
    expect(await blob.slice(-100, -8).text()).toBe("01");
    expect(await blob.slice(7, 3).text()).toBe("");
    expect(await blob.slice(1.5, 3.5).text()).toBe("23"); // [Clamp] rounds half to even
    expect(await blob.slice(NaN, Infinity).text()).toBe("0123456789");
    expect(blob.slice().type).toBe("");
    expect(blob.slice(0, 1, "A/B").type).toBe("a/b");
    expect(await blob.slice(3, 9).slice(1, -1).text()).toBe("4567");
  });

  test("slices and blobs made of blobs share the bytes: ten thousand slices of 32 MB copy none", async () => {
    const big = new Blob([new Uint8Array(32 * 1024 * 1024).fill(7)]);
    const slices = [];
    for (let i = 0; i < 10000; i++) slices.push(big.slice(i, big.size - i));
    const joined = new Blob(slices.slice(0, 1000));
    expect(slices[9999].size).toBe(big.size - 2 * 9999);
    expect(joined.size).toBe(slices.slice(0, 1000).reduce((sum, s) => sum + s.size, 0));
    expect(Array.from((await big.slice(-2).bytes()))).toEqual([7, 7]);
  });
});

describe("File", () => {
  test("is a Blob with a name and a lastModified", async () => {
    const before = Date.now();
    const file = new File(["abc", new Blob(["d"])], "a/b.txt", { type: "Text/Plain" });
    expect(file instanceof Blob && file instanceof File).toBe(true);
    expect([file.name, file.type, file.size, file.webkitRelativePath]).toEqual(["a/b.txt", "text/plain", 4, ""]);
    expect(file.lastModified >= before && file.lastModified <= Date.now()).toBe(true);
    expect(await file.text()).toBe("abcd");
    expect(new File([], "x", { lastModified: 42.9 }).lastModified).toBe(42);
    expect(new File([], "\udc00").name).toBe("\ufffd");
    expect(Object.prototype.toString.call(file)).toBe("[object File]");
    expect(file.slice(1) instanceof File).toBe(false);
    expect(() => new File(["x"])).toThrow(/2 arguments required, but only 1 present/);
    expect(() => Object.getOwnPropertyDescriptor(File.prototype, "name").get.call(new Blob())).toThrow(/not a File/);
  });
});

describe("structuredClone", () => {
  test("copies a Blob and a File, sharing their bytes", async () => {
    const blob = new Blob(["bytes"], { type: "text/x-a" });
    const file = new File(["file"], "f.txt", { type: "text/x-b", lastModified: 7 });
    const copy = structuredClone({ blob, file, again: blob });
    expect(copy.blob !== blob && copy.blob instanceof Blob && !(copy.blob instanceof File)).toBe(true);
    expect(copy.again).toBe(copy.blob);
    expect([copy.blob.type, await copy.blob.text()]).toEqual(["text/x-a", "bytes"]);
    expect(copy.file instanceof File).toBe(true);
    expect([copy.file.name, copy.file.lastModified, copy.file.type, await copy.file.text()]).toEqual(["f.txt", 7, "text/x-b", "file"]);
  });

  test("refuses a FormData", () => {
    expect(() => structuredClone(new FormData())).toThrow(/FormData.*could not be cloned/);
  });
});

describe("FormData", () => {
  test("keeps entries in order: strings as USVStrings, Blobs as Files named \"blob\"", async () => {
    const fd = new FormData();
    const blob = new Blob(["abc"], { type: "text/plain" });
    const file = new File(["f"], "orig.txt", { lastModified: 5 });
    fd.append("s", "a\ud800");
    fd.append("b", blob);
    fd.append("f", file);
    fd.append("g", file, "renamed.txt");
    fd.append("n", 12);
    expect([...fd.keys()]).toEqual(["s", "b", "f", "g", "n"]);
    expect(fd.get("s")).toBe("a\ufffd");
    const b = fd.get("b");
    expect([b instanceof File, b.name, b.type, await b.text()]).toEqual([true, "blob", "text/plain", "abc"]);
    expect(fd.get("f")).toBe(file);
    expect([fd.get("g").name, fd.get("g").lastModified, await fd.get("g").text()]).toEqual(["renamed.txt", 5, "f"]);
    expect(fd.get("n")).toBe("12");
    expect(fd.get("none")).toBe(null);
  });

  test("get, getAll, has, set, delete", () => {
    const fd = new FormData();
    fd.append("a", "1");
    fd.append("b", "2");
    fd.append("a", "3");
    fd.append("c", "4");
    fd.append("a", "5");
    expect(fd.getAll("a")).toEqual(["1", "3", "5"]);
    expect([fd.has("b"), fd.has("z")]).toEqual([true, false]);
    fd.set("a", "x");
    expect([...fd]).toEqual([["a", "x"], ["b", "2"], ["c", "4"]]);
    fd.set("d", new Blob(), "d.bin");
    expect(fd.get("d").name).toBe("d.bin");
    fd.delete("b");
    expect([...fd.entries()].map(([k]) => k)).toEqual(["a", "c", "d"]);
  });

  test("iterators are live, and forEach passes value, name, formData", () => {
    const fd = new FormData();
    fd.append("a", "1");
    const iterator = fd.values();
    expect(Object.prototype.toString.call(iterator)).toBe("[object FormData Iterator]");
    expect(iterator.next()).toEqual({ value: "1", done: false });
    fd.append("b", "2");
    expect(iterator.next()).toEqual({ value: "2", done: false });
    expect(iterator.next().done).toBe(true);
    const seen = [];
    const self = {};
    fd.forEach(function (value, name, target) { seen.push([value, name, target === fd, this === self]); }, self);
    expect(seen).toEqual([["1", "a", true, true], ["2", "b", true, true]]);
    expect(FormData.prototype[Symbol.iterator]).toBe(FormData.prototype.entries);
  });

  test("says what is wrong with its arguments", () => {
    const fd = new FormData();
    expect(() => new FormData({})).toThrow(/not of type 'HTMLFormElement'/);
    expect(() => fd.append("a")).toThrow(/'append' on 'FormData': 2 arguments required, but only 1 present/);
    expect(() => fd.append("a", "b", "c")).toThrow(/parameter 2 is not of type 'Blob'/);
    expect(() => fd.get()).toThrow(/1 argument required/);
    expect(() => FormData.prototype.get.call({}, "a")).toThrow(/'this' is not a FormData/);
    expect(() => fd.forEach(1)).toThrow(/not of type 'Function'/);
  });
});
