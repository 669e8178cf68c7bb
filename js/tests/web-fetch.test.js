// @grants network:127.0.0.1
// Headers, Request, Response and fetch() (js/web/fetch.js). The live tests fetch from the test
// server Tests/NetworkingTests starts, whose base URL it passes as --arg; without one they are
// skipped and the rest (no network) still runs. The web-platform-tests' fetch/api/ holds the
// standard's own cases (scripts/wpt fetch/api).

const base = Hybrid.args[0];
// I/O against a server: a generous timeout, so that a loaded machine slows these tests down
// rather than failing them.
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);

// What the server's /bytes route sends: byte i is i * 31 + 7.
const served = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);

describe("Headers", () => {
  test("are installed lazily, as Web IDL interfaces", () => {
    expect(typeof Object.getOwnPropertyDescriptor(globalThis, "Response").get).toBe("function");
    expect([Headers.length, Request.length, Response.length, fetch.length]).toEqual([0, 1, 0, 1]);
    const after = Object.getOwnPropertyDescriptor(globalThis, "fetch");
    expect([after.writable, after.enumerable, after.configurable]).toEqual([true, false, true]);
    expect(Object.keys(Headers.prototype)).toEqual(["append", "delete", "get", "getSetCookie", "has", "set", "entries", "keys", "values", "forEach"]);
    expect(Object.keys(Response)).toEqual(["error", "redirect", "json"]);
    expect(Object.prototype.toString.call(new Headers().keys())).toBe("[object Headers Iterator]");
    expect(() => Headers.prototype.get.call({}, "a")).toThrow(/'this' is not a Headers/);
    expect(() => structuredClone(new Headers())).toThrow(/could not be cloned|DataCloneError/);
  });

  test("names are compared without case; values are trimmed and combined with ', '", () => {
    const headers = new Headers({ "Content-Type": " text/plain \t" });
    headers.append("X-Tag", "a");
    headers.append("x-tag", "b");
    expect(headers.get("content-type")).toBe("text/plain");
    expect(headers.get("X-TAG")).toBe("a, b");
    expect(headers.has("x-Tag")).toBe(true);
    headers.set("X-Tag", "c");
    expect(headers.get("x-tag")).toBe("c");
    headers.delete("X-TAG");
    expect([headers.has("x-tag"), headers.get("x-tag")]).toEqual([false, null]);
  });

  test("iterate sorted, lower-cased and combined, with each Set-Cookie apart; getSetCookie() lists them", () => {
    const headers = new Headers([["Set-Cookie", "a=1"], ["B", "x"], ["set-cookie", "b=2"], ["a", "y"], ["b", "z"]]);
    expect([...headers]).toEqual([["a", "y"], ["b", "x, z"], ["set-cookie", "a=1"], ["set-cookie", "b=2"]]);
    expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(headers.get("set-cookie")).toBe("a=1, b=2");
    expect([...headers.keys()]).toEqual(["a", "b", "set-cookie", "set-cookie"]);
    const seen = [];
    headers.forEach((value, name, target) => seen.push([name, value, target === headers]));
    expect(seen[1]).toEqual(["b", "x, z", true]);
    // The iterator is live: a header added as it goes is met in its place.
    const iterator = headers.entries();
    iterator.next();
    headers.append("aa", "new");
    expect(iterator.next().value).toEqual(["aa", "new"]);
  });

  test("a bad name or value, a byte string past U+00FF, or a wrong pair is a TypeError", () => {
    expect(() => new Headers({ "a b": "x" })).toThrow(/"a b" is an invalid header name/);
    expect(() => new Headers({ a: "x\ny" })).toThrow(/invalid header value/);
    expect(() => new Headers({ a: "x\0" })).toThrow(TypeError);
    expect(() => new Headers({ a: "\u0100" })).toThrow(/ByteString/);
    expect(() => new Headers([["a"]])).toThrow(/length 2, found 1/);
    expect(() => new Headers("a")).toThrow(TypeError);
    expect(() => new Headers().get("é")).toThrow(TypeError);
    // Header names a browser forbids are kept: a host sends what it is told.
    const headers = new Headers({ Host: "example.test", Cookie: "a=1", "Content-Length": "3" });
    expect(headers.get("host")).toBe("example.test");
  });

  test("a response's fetched headers are immutable, a request's no-cors ones keep only the safelisted", () => {
    expect(() => Response.error().headers.append("a", "b")).toThrow(/immutable/);
    expect(() => Response.redirect("http://a.test/").headers.delete("location")).toThrow(TypeError);
    const request = new Request("http://a.test/", { mode: "no-cors", headers: { Accept: "text/html", "X-Custom": "1", "Content-Type": "application/json" } });
    expect([...request.headers]).toEqual([["accept", "text/html"]]);
    request.headers.set("Content-Type", "text/plain");
    expect(request.headers.get("content-type")).toBe("text/plain");
    expect(() => new Request("http://a.test/", { mode: "no-cors", method: "PUT" })).toThrow(/unsupported in no-cors mode/);
  });
});

describe("Request", () => {
  test("normalizes its method and keeps what init says", () => {
    const controller = new AbortController();
    const request = new Request("http://a.test/x?q#frag", {
      method: "post", body: "abc", cache: "no-store", credentials: "omit", redirect: "manual", referrer: "",
      integrity: "sha256-x", keepalive: true, signal: controller.signal, headers: [["X-A", "1"]],
    });
    expect([request.method, request.url, request.cache, request.credentials, request.redirect, request.referrer]).toEqual(
      ["POST", "http://a.test/x?q#frag", "no-store", "omit", "manual", ""]);
    expect([request.mode, request.integrity, request.keepalive, request.destination, request.duplex]).toEqual(["cors", "sha256-x", true, "", "half"]);
    expect(request.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
    expect(new Request("http://a.test/", { method: "patch" }).method).toBe("patch");
    expect(new Request("http://a.test/").referrer).toBe("about:client");
    expect(request.signal.aborted).toBe(false);
    controller.abort("why");
    expect([request.signal.aborted, request.signal.reason]).toEqual([true, "why"]);
  });

  test("refuses what the standard refuses", () => {
    expect(() => new Request("/relative")).toThrow(/Failed to parse URL from \/relative/);
    expect(() => new Request("http://user:pw@a.test/")).toThrow(/includes credentials/);
    for (const method of ["CONNECT", "trace", "Track"]) expect(() => new Request("http://a.test/", { method })).toThrow(/unsupported/);
    expect(() => new Request("http://a.test/", { method: "a b" })).toThrow(/not a valid HTTP method/);
    expect(() => new Request("http://a.test/", { body: "x" })).toThrow(/GET\/HEAD method cannot have body/);
    expect(() => new Request("http://a.test/", { method: "HEAD", body: "" })).toThrow(TypeError);
    expect(() => new Request("http://a.test/", { mode: "navigate" })).toThrow(TypeError);
    expect(() => new Request("http://a.test/", { cache: "sometimes" })).toThrow(/RequestCache/);
    expect(() => new Request("http://a.test/", { cache: "only-if-cached" })).toThrow(/same-origin/);
    expect(() => new Request("http://a.test/", { signal: {} })).toThrow(/AbortSignal/);
    expect(() => new Request("http://a.test/", { window: {} })).toThrow(TypeError);
    const stream = new ReadableStream();
    expect(() => new Request("http://a.test/", { method: "POST", body: stream })).toThrow(/duplex/);
    expect(new Request("http://a.test/", { method: "POST", body: stream, duplex: "half" }).body).toBe(stream);
  });

  test("made from another Request, it takes over its body and follows its signal", async () => {
    const controller = new AbortController();
    const first = new Request("http://a.test/", { method: "PUT", body: "payload", signal: controller.signal });
    const second = new Request(first, { headers: { "X-B": "2" } });
    expect([first.bodyUsed, second.bodyUsed, second.method, [...second.headers]]).toEqual([true, false, "PUT", [["x-b", "2"]]]);
    expect(() => new Request(first)).toThrow(/already been used/);
    expect(await second.text()).toBe("payload");
    controller.abort();
    expect(second.signal.aborted).toBe(true);
  });

  test("clone() copies the body and the headers, and follows the signal", async () => {
    const controller = new AbortController();
    const request = new Request("http://a.test/", { method: "POST", body: "abc", signal: controller.signal });
    const copy = request.clone();
    copy.headers.set("X-Only", "copy");
    expect(request.headers.has("x-only")).toBe(false);
    expect([await request.text(), await copy.text()]).toEqual(["abc", "abc"]);
    expect(() => request.clone()).toThrow(/already been consumed/);
    controller.abort();
    expect(copy.signal.aborted).toBe(true);
  });
});

describe("Response", () => {
  test("checks its init: status 200-599, a reason phrase, no body on a null body status", () => {
    expect(new Response(null, { status: 204 }).status).toBe(204);
    for (const status of [204, 205, 304]) expect(() => new Response("x", { status })).toThrow(/null body status/);
    expect(() => new Response("x", { status: 199 })).toThrow(RangeError);
    expect(() => new Response("x", { status: 600 })).toThrow(RangeError);
    expect(() => new Response("x", { status: 70000 })).toThrow(TypeError);
    expect(() => new Response("x", { statusText: "a\nb" })).toThrow(/statusText/);
    const response = new Response("x", { status: 201, statusText: "Made", headers: { "X-A": "1" } });
    expect([response.status, response.statusText, response.ok, response.type, response.url, response.redirected]).toEqual(
      [201, "Made", true, "default", "", false]);
    expect(new Response(null, { status: 404 }).ok).toBe(false);
  });

  test("error(), redirect() and json()", async () => {
    const error = Response.error();
    expect([error.type, error.status, error.body]).toEqual(["error", 0, null]);
    const redirect = Response.redirect("http://a.test/next", 307);
    expect([redirect.status, redirect.headers.get("location"), redirect.body]).toEqual([307, "http://a.test/next", null]);
    expect(() => Response.redirect("http://a.test/", 200)).toThrow(RangeError);
    expect(() => Response.redirect("/next")).toThrow(TypeError);
    const json = Response.json({ a: [1, "é"] }, { status: 202 });
    expect([json.status, json.headers.get("content-type"), await json.text()]).toEqual([202, "application/json", '{"a":[1,"é"]}']);
    expect(() => Response.json(undefined)).toThrow(/not JSON serializable/);
    expect(() => Response.json(1n)).toThrow(TypeError);
  });

  test("a body from a string, bytes, a Blob, URLSearchParams or a stream, with its Content-Type", async () => {
    const cases = [
      ["é", "text/plain;charset=UTF-8", [0xc3, 0xa9]],
      [new Uint16Array([0x0201]), null, [1, 2]],
      [new Uint8Array([1, 2, 3, 4]).subarray(1, 3), null, [2, 3]],
      [new Uint8Array([9, 8]).buffer, null, [9, 8]],
      [new DataView(new Uint8Array([5, 6, 7]).buffer, 1), null, [6, 7]],
      [new Blob(["hi"], { type: "Text/X" }), "text/x", [0x68, 0x69]],
      [new Blob(["hi"]), null, [0x68, 0x69]],
      [new URLSearchParams({ a: "1 2" }), "application/x-www-form-urlencoded;charset=UTF-8", [...new TextEncoder().encode("a=1+2")]],
      [ReadableStream.from([new Uint8Array([1]), new Uint8Array([2, 3])]), null, [1, 2, 3]],
      [{ toString: () => "obj" }, "text/plain;charset=UTF-8", [0x6f, 0x62, 0x6a]],
    ];
    for (const [body, type, bytes] of cases) {
      const response = new Response(body);
      expect(response.headers.get("content-type")).toBe(type);
      expect(Array.from(await response.bytes())).toEqual(bytes);
    }
    // The bytes were copied when the body was made.
    const buffer = new Uint8Array([1]);
    const response = new Response(buffer);
    buffer[0] = 9;
    expect(Array.from(await response.bytes())).toEqual([1]);
    const locked = new ReadableStream();
    locked.getReader();
    expect(() => new Response(locked)).toThrow(/disturbed or locked/);
  });

  test("text(), json(), arrayBuffer(), bytes() and blob(); a body reads once", async () => {
    expect(await new Response("\ufeffhé\ud800").text()).toBe("hé\ufffd");
    expect(await new Response('{"a":1}').json()).toEqual({ a: 1 });
    await expect(new Response("{").json()).rejects.toThrow(SyntaxError);
    const buffer = await new Response("abc").arrayBuffer();
    expect([buffer instanceof ArrayBuffer, buffer.byteLength]).toEqual([true, 3]);
    const blob = await new Response("abc", { headers: { "Content-Type": "Text/Plain; Charset=UTF-8" } }).blob();
    expect([blob.type, await blob.text()]).toEqual(["text/plain;charset=utf-8", "abc"]);
    expect(await new Response().text()).toBe("");
    const response = new Response("once");
    expect(response.bodyUsed).toBe(false);
    await response.text();
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(/Body is unusable/);
    // Read without a stream, its body is still a stream, read to its end.
    expect([response.body.locked, response.bodyUsed]).toEqual([true, true]);
    await expect(Response.prototype.text.call({})).rejects.toThrow(/'this' is not a Response/);
  });

  test("body is a byte stream made at its first read; reading it uses the body", async () => {
    const response = new Response("stream me");
    const body = response.body;
    expect(response.body).toBe(body);
    const reader = body.getReader({ mode: "byob" });
    const { value } = await reader.read(new Uint8Array(6));
    expect(new TextDecoder().decode(value)).toBe("stream");
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(new Response(null).body).toBe(null);
  });

  test("clone() tees the body: both read all of it", async () => {
    const response = new Response(ReadableStream.from(["a", "b"].map((s) => new TextEncoder().encode(s))), { status: 203 });
    const copy = response.clone();
    expect(copy.status).toBe(203);
    expect(await Promise.all([response.text(), copy.text()])).toEqual(["ab", "ab"]);
    expect(() => response.clone()).toThrow(/already been consumed/);
    const whole = new Response("whole");
    const wholeCopy = whole.clone();
    expect([await whole.text(), await wholeCopy.text()]).toEqual(["whole", "whole"]);
  });

  test("formData() parses what a FormData body becomes, and urlencoded bodies", async () => {
    const form = new FormData();
    form.append("name", "milk\r\nbread");
    form.append("quote\"d", "é");
    form.append("file", new File(["xy"], "n\"ote.txt", { type: "text/x" }));
    form.append("blob", new Blob([new Uint8Array([0, 255])]));
    const parsed = await new Response(form).formData();
    expect([...parsed.keys()]).toEqual(["name", "quote\"d", "file", "blob"]);
    expect([parsed.get("name"), parsed.get("quote\"d")]).toEqual(["milk\r\nbread", "é"]);
    const file = parsed.get("file");
    expect([file instanceof File, file.name, file.type, await file.text()]).toEqual([true, "n\"ote.txt", "text/x", "xy"]);
    expect([parsed.get("blob").name, parsed.get("blob").type, Array.from(await parsed.get("blob").bytes())]).toEqual(["blob", "application/octet-stream", [0, 255]]);
    const urlencoded = await new Response("a=1&b=%20x&a=2&?c=", { headers: { "Content-Type": "application/x-www-form-urlencoded" } }).formData();
    expect([...urlencoded]).toEqual([["a", "1"], ["b", " x"], ["a", "2"], ["?c", ""]]);
  });

  test("formData() refuses another Content-Type, or a broken multipart body", async () => {
    await expect(new Response("a=1").formData()).rejects.toThrow(/neither multipart/);
    const multipart = (body) => new Response(body, { headers: { "Content-Type": "multipart/form-data; boundary=B" } }).formData();
    await expect(multipart("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--B--\r\n")).resolves.toBeInstanceOf(FormData);
    await expect(multipart("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n")).rejects.toThrow(/not valid multipart/);
    await expect(multipart("--B\r\nContent-Disposition: attachment\r\n\r\nx\r\n--B--\r\n")).rejects.toThrow(TypeError);
    await expect(new Response("", { headers: { "Content-Type": "multipart/form-data" } }).formData()).rejects.toThrow(TypeError);
  });
});

describe("fetch", () => {
  test("a data: URL answers at once", async () => {
    const response = await fetch("data:text/plain;base64,aGVsbG8=");
    expect([response.status, response.statusText, response.type, response.url]).toEqual([200, "OK", "basic", "data:text/plain;base64,aGVsbG8="]);
    expect([[...response.headers], await response.text()]).toEqual([[["content-type", "text/plain"]], "hello"]);
    const plain = await fetch("data:,a%20b%FF");
    expect([plain.headers.get("content-type"), Array.from(await plain.bytes())]).toEqual(["text/plain;charset=US-ASCII", [0x61, 0x20, 0x62, 0xff]]);
    await expect(fetch("data:text/plain;base64,%%%")).rejects.toThrow(/fetch failed/);
    expect((await fetch("data:,abc", { method: "HEAD" })).body).toBe(null);
  });

  test("a URL that does not parse, a bad init, or no argument rejects with a TypeError", async () => {
    await expect(fetch("/relative")).rejects.toThrow(/Failed to parse URL from \/relative/);
    await expect(fetch("http://a.test/", { method: "TRACE" })).rejects.toThrow(TypeError);
    await expect(fetch()).rejects.toThrow(/1 argument required/);
  });

  test("headers that would change the message's framing are refused, as undici's transport refuses them", async () => {
    for (const headers of [{ "Content-Length": "42" }, { "Transfer-Encoding": "chunked" }, { Connection: "upgrade" }, { Expect: "100-continue" }]) {
      const error = await fetch("http://127.0.0.1:1/", { headers }).catch((e) => e);
      expect([error instanceof TypeError, error.message, error.cause instanceof TypeError]).toEqual([true, "fetch failed", true]);
    }
  });

  test("an aborted signal rejects with its reason before anything is sent", async () => {
    await expect(fetch("http://127.0.0.1:1/", { signal: AbortSignal.abort("stop") })).rejects.toBe("stop");
    await expect(fetch("http://127.0.0.1:1/", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("fetch against the test server", () => {
  live("a GET: a basic response, read straight from its bytes", async () => {
    const response = await fetch(`${base}/small`);
    expect([response.status, response.ok, response.type, response.url, response.redirected]).toEqual([200, true, "basic", `${base}/small`, false]);
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(() => response.headers.set("x", "y")).toThrow(/immutable/);
    expect(await response.text()).toBe("ok");
    const missing = await fetch(`${base}/status/404`);
    expect([missing.status, missing.ok, await missing.text()]).toEqual([404, false, "status 404"]);
  });

  live("what a request sends: method, headers (Accept and Accept-Language by default), body", async () => {
    const response = await fetch(`${base}/echo`, { method: "POST", body: "hé", headers: { "X-Trace": "t1", Accept: "application/json" } });
    const echo = await response.json();
    expect([echo.method, echo.body, echo.size]).toEqual(["POST", "hé", 3]);
    expect(echo.headers).toMatchObject({ "x-trace": "t1", accept: "application/json", "accept-language": "*", "content-type": "text/plain;charset=UTF-8" });
    expect(echo.headers["user-agent"]).toBe(navigator.userAgent);
    expect((await (await fetch(`${base}/echo`)).json()).headers.accept).toBe("*/*");
    // A request's own take the defaults' place, sent once, whatever their case.
    const own = await (await fetch(`${base}/echo`, { headers: { "USER-AGENT": "mine/1", "accept-LANGUAGE": "fr" } })).json();
    expect([own.headers["user-agent"], own.headers["accept-language"], own.headers.accept]).toEqual(["mine/1", "fr", "*/*"]);
    const request = new Request(`${base}/echo`, { method: "PATCH", body: new URLSearchParams({ q: "a b" }) });
    const patched = await (await fetch(request)).json();
    expect([patched.method, patched.body, request.bodyUsed]).toEqual(["PATCH", "q=a+b", true]);
  });

  // A whole body that is UTF-8 crosses as text (network.fetch's bodyAsText): what reads it must
  // see the bytes it came as.
  live("a UTF-8 body crossing as text reads as its bytes: a byte order mark, clones, streams, invalid UTF-8", async () => {
    const post = (bytes) => fetch(`${base}/echo?raw=1`, { method: "POST", body: bytes, headers: { "Content-Type": "text/plain" } });
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]);
    expect(await (await post(bom)).text()).toBe("hé");
    expect(Array.from(new Uint8Array(await (await post(bom)).arrayBuffer()))).toEqual(Array.from(bom));
    expect(await (await post(new TextEncoder().encode('\ufeff{"a":[1,"é"]}'))).json()).toEqual({ a: [1, "é"] });
    await expect((await post(new TextEncoder().encode("{not json"))).json()).rejects.toThrow(SyntaxError);
    const invalid = new Uint8Array([0x61, 0xff, 0x62]);
    expect(await (await post(invalid)).text()).toBe("a\ufffdb");
    expect(Array.from(await (await post(invalid)).bytes())).toEqual([0x61, 0xff, 0x62]);
    const response = await post(bom);
    const copy = response.clone();
    expect(await copy.text()).toBe("hé");
    const reader = response.body.getReader();
    const read = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) read.push(...chunk.value);
    expect(read).toEqual(Array.from(bom));
    const once = await post(bom);
    expect(await (await once.blob()).text()).toBe("hé");
    expect(once.bodyUsed).toBe(true);
    await expect(once.text()).rejects.toThrow(TypeError);
  });

  live("network.fetch answers text only when asked, for UTF-8 of at most 64 KiB", async () => {
    const ask = (body, bodyAsText) => Hybrid.call("network", "fetch", { url: `${base}/echo?raw=1`, method: "POST", body, bodyAsText });
    const asked = await ask("hé", true);
    expect([asked.text, asked.body]).toEqual(["hé", undefined]);
    const plain = await ask("hé", undefined);
    expect([plain.text, Array.from(plain.body)]).toEqual([undefined, [0x68, 0xc3, 0xa9]]);
    const large = await ask("x".repeat(65537), true);
    expect([large.text, large.body?.length ?? large.stream !== undefined]).toEqual([undefined, large.body ? 65537 : true]);
    if (large.stream !== undefined) await Hybrid.call("network", "cancel", { stream: large.stream });
  });

  live("binary bodies both ways: bytes, a Blob, a FormData, a ReadableStream", async () => {
    const bytes = served(70000);
    const echoed = await fetch(`${base}/echo?raw=1`, { method: "PUT", body: bytes, headers: { "Content-Type": "application/octet-stream" } });
    expect(Array.from(await echoed.bytes())).toEqual(Array.from(bytes));
    const blob = await (await fetch(`${base}/echo?raw=1`, { method: "POST", body: new Blob([bytes], { type: "application/x-test" }) })).blob();
    expect([blob.type, blob.size]).toEqual(["application/x-test", 70000]);
    const form = new FormData();
    form.append("note", "milk");
    form.append("file", new File(["abc"], "a.txt", { type: "text/plain" }));
    const parsed = await (await fetch(`${base}/echo?raw=1`, { method: "POST", body: form })).formData();
    expect([parsed.get("note"), await parsed.get("file").text()]).toEqual(["milk", "abc"]);
    const stream = ReadableStream.from([new Uint8Array([1, 2]), new Uint8Array([3])]);
    const streamed = await fetch(`${base}/echo?raw=1`, { method: "POST", body: stream, duplex: "half", headers: { "Content-Type": "application/octet-stream" } });
    expect(Array.from(await streamed.bytes())).toEqual([1, 2, 3]);
  });

  live("redirects: followed, manual (the 3xx itself), or an error", async () => {
    const followed = await fetch(`${base}/redirect?to=/small`);
    expect([followed.status, followed.redirected, followed.url, await followed.text()]).toEqual([200, true, `${base}/small`, "ok"]);
    const manual = await fetch(`${base}/redirect?to=/small&code=301`, { redirect: "manual" });
    expect([manual.status, manual.type, manual.redirected, manual.headers.get("location")]).toEqual([301, "basic", false, "/small"]);
    const error = await fetch(`${base}/redirect?to=/small`, { redirect: "error" }).catch((e) => e);
    expect([error instanceof TypeError, error.message, error.cause.code, error.cause.details.reason]).toEqual([true, "fetch failed", "E_FAILED", "redirect"]);
  });

  live("a network failure is a TypeError 'fetch failed' whose cause is the bridge's error", async () => {
    const refused = await fetch("http://127.0.0.1:1/").catch((e) => e);
    expect([refused instanceof TypeError, refused.message]).toEqual([true, "fetch failed"]);
    expect(refused.cause).toMatchObject({ name: "HybridError", code: "E_FAILED", details: { reason: "connect" } });
    const port = base.split(":").pop();
    const denied = await fetch(`http://localhost:${port}/small`).catch((e) => e);
    expect([denied.message, denied.cause.code]).toEqual(["fetch failed", "E_DENIED"]);
  });

  live("an abort before the answer rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = fetch(`${base}/slow?ms=5000`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(fetch(`${base}/slow?ms=5000`, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  live("a body still arriving is a byte stream, read as it comes", async () => {
    const response = await fetch(`${base}/bytes?n=3000000&chunks=30&chunkMs=5`);
    expect(response.headers.get("content-length")).toBe("3000000");
    const reader = response.body.getReader();
    const chunks = [];
    for (let step = await reader.read(); !step.done; step = await reader.read()) chunks.push(step.value);
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    expect(chunks.length).toBeGreaterThan(1);
    expect(bytes.length).toBe(3000000);
    expect(bytes.every((byte, i) => byte === ((i * 31 + 7) & 0xff))).toBe(true);
    const whole = await fetch(`${base}/bytes?n=200000&chunks=4&chunkMs=20`);
    expect((await whole.arrayBuffer()).byteLength).toBe(200000);
  });

  live("a body still arriving reads into the reader's own buffer: one 64 KiB buffer, handed back and forth, gets every byte", async () => {
    const n = 1000000;
    const response = await fetch(`${base}/bytes?n=${n}&chunks=20&chunkMs=5`);
    const reader = response.body.getReader({ mode: "byob" });
    const received = new Uint8Array(n);
    let buffer = new ArrayBuffer(65536);
    let [offset, reads] = [0, 0];
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      // Each read fills the buffer it was given (moved into `value`), never more than it holds.
      expect(value.byteLength).toBeLessThanOrEqual(65536);
      expect(value.buffer.byteLength).toBe(65536);
      buffer = value.buffer;
      if (done) break;
      received.set(value, offset);
      offset += value.byteLength;
      reads++;
    }
    expect(offset).toBe(n);
    expect(reads).toBeGreaterThanOrEqual(n / 65536);
    expect(received.every((byte, i) => byte === ((i * 31 + 7) & 0xff))).toBe(true);
    await reader.closed;
    // read({ min }) waits until the view holds at least that much, across the network's chunks.
    const again = (await fetch(`${base}/bytes?n=300000&chunks=30&chunkMs=5`)).body.getReader({ mode: "byob" });
    const { value: full } = await again.read(new Uint8Array(200000), { min: 200000 });
    expect([full.byteLength, full[199999]]).toEqual([200000, served(200000)[199999]]);
    await again.cancel();
  });

  live("a streamed body cloned: both branches get every byte", async () => {
    const response = await fetch(`${base}/bytes?n=500000&chunks=5&chunkMs=10`);
    const copy = response.clone();
    const [a, b] = await Promise.all([response.bytes(), copy.bytes()]);
    expect([a.length, b.length, a[499999], b[499999]]).toEqual([500000, 500000, served(500000)[499999], served(500000)[499999]]);
  });

  live("an abort while the body is read errors it with the signal's reason", async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/bytes?n=1000000&chunks=50&chunkMs=50`, { signal: controller.signal });
    const reader = response.body.getReader();
    await reader.read();
    controller.abort(new Error("enough"));
    await expect(reader.read()).rejects.toThrow("enough");
    const whole = await fetch(`${base}/small`, { signal: controller.signal }).catch((e) => e);
    expect(whole.message).toBe("enough");
  });

  live("cancelling unread bodies frees their connections: eight held bodies in a row all answer", async () => {
    // Six connections to a host at most: a body left open would hold one.
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${base}/bytes?n=1000000&chunks=100&chunkMs=100&i=${i}`);
      await response.body.cancel();
    }
    expect(await (await fetch(`${base}/small`)).text()).toBe("ok");
  });

  live("HEAD has no body; Set-Cookie answers keep each cookie", async () => {
    const head = await fetch(`${base}/echo`, { method: "HEAD" });
    expect([head.status, head.body, await head.text()]).toEqual([200, null, ""]);
    const cookies = await fetch(`${base}/set-cookie?c=a=1&c=b=2`, { credentials: "omit" });
    expect(cookies.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect([...cookies.headers].filter(([name]) => name === "set-cookie")).toEqual([["set-cookie", "a=1"], ["set-cookie", "b=2"]]);
  });

  live("what a program put on Object.prototype does not reach the bridge's params", async () => {
    Object.prototype.type = -1;
    try {
      expect(await (await fetch(`${base}/small`)).text()).toBe("ok");
    } finally {
      delete Object.prototype.type;
    }
  });

  live("retry, the host's addition to the init, reaches the network service", async () => {
    const response = await fetch(`${base}/flaky/fetch-${Date.now()}?fail=1`, { retry: { attempts: 2, backoffMs: 1 } });
    expect([response.status, await response.text()]).toEqual([200, "ok after 1"]);
  });

  live("cache modes reach the app's HTTP cache: only-if-cached answers from it", async () => {
    const url = `${base}/cached/fetch-${Date.now()}`;
    const first = await (await fetch(url)).json();
    const cached = await (await fetch(url, { cache: "only-if-cached", mode: "same-origin" })).json();
    expect(cached).toEqual(first);
    const missing = await fetch(`${url}-none`, { cache: "only-if-cached", mode: "same-origin" }).catch((e) => e);
    expect(missing.cause.details.reason).toBe("not_cached");
  });
});
