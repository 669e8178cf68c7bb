// URL and URLSearchParams as H5 code meets them: the Web IDL surface, the live link between a URL
// and its searchParams, and what node does not check for us (WebURLTests compares parsing with
// node; the web-platform-tests' url/ directory holds the standard's own cases: scripts/wpt url).

describe("URL", () => {
  test("is installed lazily, as a Web IDL interface object", () => {
    expect(typeof Object.getOwnPropertyDescriptor(globalThis, "URLSearchParams").get).toBe("function");
    expect(URL.length).toBe(1);
    expect(URLSearchParams.length).toBe(0);
    const after = Object.getOwnPropertyDescriptor(globalThis, "URLSearchParams");
    expect([after.writable, after.enumerable, after.configurable]).toEqual([true, false, true]);
    expect(Object.prototype.toString.call(new URL("http://h/"))).toBe("[object URL]");
    expect(Object.keys(URL.prototype)).toContain("href");
  });

  test("parses against a base, and says what failed to parse", () => {
    expect(new URL("../b?c#d", "https://Example.org:443/a/x").href).toBe("https://example.org/b?c#d");
    expect(() => new URL("nope")).toThrow(TypeError);
    expect(() => new URL("nope")).toThrow(/Invalid URL "nope"/);
    expect(() => new URL("/p", "also nope")).toThrow(/Invalid base URL "also nope"/);
    expect(() => new URL()).toThrow(TypeError);
    expect(new URL(undefined, "http://h/").href).toBe("http://h/undefined");
  });

  test("hosts: IDNA through ICU, IPv4 number forms, IPv6 compressed", () => {
    expect(new URL("http://Bücher.EXAMPLE/").host).toBe("xn--bcher-kva.example");
    expect(new URL("http://xn--BCHER-kva.example/").host).toBe("xn--bcher-kva.example");
    expect(() => new URL("http://xn--ls8h=/")).toThrow(TypeError);
    expect(new URL("http://0xC0.0250.1/").host).toBe("192.168.0.1");
    expect(new URL("http://[0:0:0:0:0:ffff:7f00:1]/").host).toBe("[::ffff:7f00:1]");
    expect(URL.canParse("http://256.0.0.1/")).toBe(false);
  });

  test("an IPv4 address as the serializer writes it is kept; any other form is rewritten or refused", () => {
    // The one-pass parse takes the first kind as it is; the rest go through the IPv4 parser.
    expect(new URL("http://127.0.0.1:8080/a?b").href).toBe("http://127.0.0.1:8080/a?b");
    expect(new URL("http://0.0.0.0").href).toBe("http://0.0.0.0/");
    expect(new URL("https://255.255.255.255:443/").href).toBe("https://255.255.255.255/");
    expect(new URL("http://127.0.0.01/").host).toBe("127.0.0.1");
    expect(new URL("http://010.0.0.1/").host).toBe("8.0.0.1");
    expect(new URL("http://127.0.0.1./x").href).toBe("http://127.0.0.1/x");
    expect(new URL("http://1.2.3/").host).toBe("1.2.0.3");
    expect(URL.canParse("http://1.2.3.4.5/")).toBe(false);
    expect(URL.canParse("http://1.2.3.256/")).toBe(false);
    expect(URL.canParse("http://a.1/")).toBe(false);
  });

  test("lone surrogates are U+FFFD, percent-encoded", () => {
    expect(new URL("http://h/\ud800?\udc00#\ud83d").href).toBe("http://h/%EF%BF%BD?%EF%BF%BD#%EF%BF%BD");
    expect(URL.canParse("http://a\ud800b/")).toBe(false);
  });

  test("setters change what the standard lets them, and href throws on what does not parse", () => {
    const url = new URL("https://h/p");
    url.port = "443";
    expect(url.port).toBe("");
    url.port = "8443";
    url.username = "a b";
    url.hostname = "[::1]";
    expect(url.href).toBe("https://a%20b@[::1]:8443/p");
    expect(() => { url.href = "relative"; }).toThrow(TypeError);
    expect(url.href).toBe("https://a%20b@[::1]:8443/p");
    url.protocol = "mailto";
    expect(url.protocol).toBe("https:");
  });

  test("searchParams is one object, live-linked both ways", () => {
    const url = new URL("http://h/?a=1");
    const params = url.searchParams;
    expect(url.searchParams).toBe(params);
    params.append("b", "x y");
    expect(url.search).toBe("?a=1&b=x+y");
    url.search = "c=3";
    expect([...params]).toEqual([["c", "3"]]);
    url.href = "http://other/?d=4";
    expect(params.get("d")).toBe("4");
    params.delete("d");
    expect(url.href).toBe("http://other/");
  });

  test("URL.parse makes a new object each time, null on failure", () => {
    const a = URL.parse("http://h/");
    expect(a).not.toBe(URL.parse("http://h/"));
    expect(a instanceof URL).toBe(true);
    expect(URL.parse("http://[/")).toBe(null);
  });

  test("accessors check what they are called on", () => {
    const href = Object.getOwnPropertyDescriptor(URL.prototype, "href").get;
    expect(() => href.call({})).toThrow(TypeError);
    expect(() => URLSearchParams.prototype.get.call(new URL("http://h/"), "a")).toThrow(TypeError);
  });

  test("neither a URL nor its params can be structured-cloned", () => {
    for (const value of [new URL("http://h/"), new URLSearchParams("a=1")]) {
      let thrown;
      try {
        structuredClone(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown instanceof DOMException && thrown.name).toBe("DataCloneError");
    }
  });
});

describe("URLSearchParams", () => {
  test("takes a string, pairs or a record", () => {
    expect(new URLSearchParams("?a=%20+b&&c").toString()).toBe("a=++b&c=");
    expect([...new URLSearchParams([["x", "1"], new Set(["y", "2"])])]).toEqual([["x", "1"], ["y", "2"]]);
    expect(() => new URLSearchParams([["x"]])).toThrow(TypeError);
    expect(new URLSearchParams({ b: "2", a: "1" }).toString()).toBe("b=2&a=1");
    expect(new URLSearchParams(new URLSearchParams("q=1")).get("q")).toBe("1");
  });

  test("get, getAll, has and delete with a value, set, size", () => {
    const params = new URLSearchParams("a=1&b=2&a=3");
    expect([params.get("a"), params.get("z"), params.getAll("a"), params.size]).toEqual(["1", null, ["1", "3"], 3]);
    expect([params.has("a", "3"), params.has("a", "2")]).toEqual([true, false]);
    params.delete("a", "1");
    params.set("b", "new");
    expect(params.toString()).toBe("b=new&a=3");
  });

  test("sort is stable and by UTF-16 code units", () => {
    const params = new URLSearchParams("z=1&\ufb03=2&\ud83c\udf08=3&a=4&z=0");
    params.sort();
    expect([...params.keys()]).toEqual(["a", "z", "z", "\ud83c\udf08", "\ufb03"]);
    expect(params.getAll("z")).toEqual(["1", "0"]);
  });

  test("its iterators are live, as Web IDL's are", () => {
    const params = new URLSearchParams("a=1&b=2&c=3");
    const seen = [];
    for (const [name] of params) {
      seen.push(name);
      if (name === "a") params.delete("b");
    }
    expect(seen).toEqual(["a", "c"]);
    const iterator = params.entries();
    expect(Object.prototype.toString.call(iterator)).toBe("[object URLSearchParams Iterator]");
    expect(URLSearchParams.prototype[Symbol.iterator]).toBe(URLSearchParams.prototype.entries);
    const values = [];
    params.forEach((value, name, target) => values.push([value, name, target === params]));
    expect(values).toEqual([["1", "a", true], ["3", "c", true]]);
  });

  test("serializes as application/x-www-form-urlencoded", () => {
    const params = new URLSearchParams();
    params.append("a b", "\u00e9&=+*-._~!");
    expect(params.toString()).toBe("a+b=%C3%A9%26%3D%2B*-._%7E%21");
  });
});
