// URL and URLSearchParams as the WHATWG URL Standard has them. WebURLTests runs this file under
// node and under `hybrid run`; both must print the same lines.
const show = (label, value) => console.log(`${label}: ${JSON.stringify(value)}`);
const parts = (url) => [url.href, url.origin, url.protocol, url.username, url.password, url.host, url.hostname, url.port,
  url.pathname, url.search, url.hash];
const parse = (input, base) => {
  try {
    return parts(base === undefined ? new URL(input) : new URL(input, base));
  } catch (error) {
    return `${error.constructor.name}`;
  }
};

const cases = [
  // Special URLs: case, default ports, dot segments, percent-encode sets.
  ["https://user:pa ss@Example.COM:443/a/./b/../c?x=1 2'#frag`"],
  ["HTTP://EXAMPLE.com:80/%7Efoo/bar baz/%2e%2E/q{}"],
  ["ws://example.org:80/chat"],
  ["http://example.org:65536/"],
  ["http://:80/"],
  ["\t https://ex\nample.org/\r "],
  ["not a url"],
  // Relative references.
  ["../up/./here?q#h", "http://example.org/a/b/c"],
  ["//other.example/p", "https://example.org/"],
  ["?only-query", "http://example.org/path/file"],
  ["#only-fragment", "http://example.org/path/file?q"],
  ["\\\\back\\slash", "http://example.org/a/b"],
  ["", "http://example.org/a?b#c"],
  // File URLs and Windows drive letters.
  ["file:///C:/Windows/../System32"],
  ["file://localhost/etc/hosts"],
  ["C|/foo/bar", "file:///tmp/base"],
  ["/..//x", "file:///C:/a/b"],
  ["file://host/share/../x"],
  // Opaque paths and non-special schemes.
  ["mailto:Someone@Example.com?subject=hi"],
  ["data:text/plain,hello world "],
  ["sc://\u00dc\u00f1\u00ed/path"],
  ["non-special://host:/path"],
  ["javascript:alert(1)"],
  ["blob:https://example.org:8443/uuid"],
  ["blob:ftp://example.org/uuid"],
  // Domains through UTS #46.
  ["http://B\u00fccher.example/"],
  ["http://xn--bcher-kva.example/"],
  ["http://fa\u00df.de/"],
  ["http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25\u3002\uff43\uff4f\uff4d/"],
  ["http://a\u200db.example/"],
  ["http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/"],
  ["http://xn--/"],
  ["http://%41.com/"],
  ["http://%e2%98%83.example/"],
  ["http://a<b/"],
  // IPv4 in its number forms, and IPv6.
  ["http://0x7f.1/"],
  ["http://0300.0250.0.1/"],
  ["http://4294967295/"],
  ["http://4294967296/"],
  ["http://1.2.3.4.5/"],
  ["http://1.2.3.09/"],
  ["http://[::1]:8080/"],
  ["http://[2001:DB8:0:0:1:0:0:1]/"],
  ["http://[::ffff:192.168.0.1]/"],
  ["http://[1:0:0:2::3:0]/"],
  ["http://[0:0:0:0:0:0:0:0]/"],
  ["http://[::1/"],
  ["http://[1::2::3]/"],
];
for (const [input, base] of cases) show(JSON.stringify(base === undefined ? [input] : [input, base]), parse(input, base));

// Setters, one after another on one URL.
const url = new URL("http://example.org/path?a=1#x");
for (const [name, value] of [["protocol", "https"], ["username", "us er"], ["password", "p@ss"], ["host", "Example.COM:8080"],
  ["hostname", "[::1]"], ["port", "443"], ["port", "99999"], ["port", "8080abc"], ["pathname", "/a b/../c"], ["search", "?q=\u00e4"],
  ["hash", "#frag ment"], ["protocol", "file"], ["hostname", "xn--bcher-kva.example"], ["href", "mailto:x@y"], ["host", "z"],
  ["search", ""], ["hash", ""]]) {
  url[name] = value;
  show(`set ${name} = ${value}`, parts(url));
}

// URLSearchParams, alone and live-linked to a URL.
const params = new URLSearchParams("?a=1&b=2&a=3&c=%20d+e&%F0%9F%8C%88=%zz");
show("params", [[...params], params.get("a"), params.getAll("a"), params.has("a", "3"), params.has("a", "4"), params.size, `${params}`]);
params.append("\u00e9", "\u00fc &=+");
params.delete("a", "1");
params.set("b", "x");
params.sort();
show("params changed", [[...params.keys()], [...params.values()], params.toString()]);
show("from pairs", new URLSearchParams([["x", "1"], ["y", "2"]]).toString());
show("from a record", new URLSearchParams({ k: "v", "w x": "y z" }).toString());
show("sorted by code units", new URLSearchParams("z=1&\ud83c\udf08=2&\ufb03=3&a=4").toString());
const linked = new URL("http://h/?q=1");
linked.searchParams.append("r", "2 3");
show("appended", linked.href);
linked.search = "?s=3";
show("search set", [...linked.searchParams]);
linked.searchParams.delete("s");
show("all deleted", linked.href);
const opaque = new URL("data:space    ?query");
opaque.searchParams.delete("query");
show("opaque path's trailing spaces", opaque.href);

// The statics and toJSON.
show("canParse", [URL.canParse("x"), URL.canParse("x", "http://h/"), URL.canParse("http://[")]);
show("parse", [URL.parse("nope"), URL.parse("/p", "http://h/q").href]);
show("toJSON", JSON.stringify({ url: new URL("http://h/\u00e4") }));
