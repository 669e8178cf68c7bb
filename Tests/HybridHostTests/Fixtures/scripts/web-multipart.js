// FormData bodies for WebBlobTests: node 20 encodes each with `new Response(formData)`, hybrid with
// the encoder its fetch will use (internals' encodeMultipart); both print the content type and the
// body's bytes in hex, with the boundary replaced by BOUNDARY (each runtime picks its own).

function multipartCases() {
  const cases = [new FormData()];
  let fd = new FormData();
  fd.append("plain", "value");
  fd.append("lines", "a\nb\rc\r\nd\n\re");
  fd.append("na\"me\r\nx\ny", "ü €");
  fd.append("lone", "\ud800x");
  cases.push(fd);
  fd = new FormData();
  fd.append("file", new File(["hello\r\nworld\n"], "h\"i\r\n.txt", { type: "text/plain" }));
  fd.append("blob", new Blob([new Uint8Array([0, 1, 2, 255, 254])]));
  fd.append("named", new Blob(["x"], { type: "application/json" }), "n.json");
  fd.set("plain", "replaced");
  fd.append("after", "z");
  fd.append("sliced", new Blob(["0123456789", "abcdef"]).slice(8, 12, "text/x-slice"));
  cases.push(fd);
  return cases;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function latin1(bytes) {
  return Array.from(bytes, (b) => String.fromCharCode(b)).join("");
}

async function printCases(encode) {
  for (const fd of multipartCases()) {
    const { contentType, bytes } = await encode(fd);
    const boundary = contentType.split("boundary=")[1];
    const text = latin1(bytes).split(boundary).join("BOUNDARY");
    console.log(contentType.split(boundary).join("BOUNDARY"), hex(Array.from(text, (c) => c.charCodeAt(0))));
  }
}
