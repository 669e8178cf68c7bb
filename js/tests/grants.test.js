// @grants network:api.example.test
// Grant bypass attempts through the real bridge: this file may reach api.example.test only.
// Tests/NetworkingTests (GrantScriptTests) pins that made-up name to its test server on
// 127.0.0.1 and runs this file as
//   hybrid test js/tests/grants.test.js --arg http://api.example.test:PORT --arg DENIED --arg GRANTED
// then checks that the server never saw /count/DENIED and saw /count/GRANTED. Without the
// arguments (plain `hybrid test js/tests`) every test here is skipped.

const [base, denied, granted] = Hybrid.args;
const live = (name, fn) => (base ? test : test.skip)(name, fn, 60000);
const net = (action, params) => Hybrid.call("network", action, params);
const port = base ? base.split(":").pop() : "";

// Every one of these reaches the test server (or another host) if curl is handed it; none is
// the granted name.
const spellings = [
  "127.0.0.1", "localhost", "127.1", "0x7f000001", "2130706433", "0177.0.0.1", "[::1]", "[::ffff:127.0.0.1]",
  "api.example.test@127.0.0.1", "api.example.test.evil.test", "127.0.0.1.",
];

live("every other spelling of the server is E_DENIED, by request and by download", async () => {
  for (const host of spellings) {
    const url = `http://${host}:${port}/count/${denied}`;
    await expect(net("request", { url })).rejects.toMatchObject({ code: "E_DENIED", details: { reason: "host" } });
    await expect(net("download", { url, path: "got.bin" })).rejects.toMatchObject({ code: "E_DENIED" });
  }
});

live("a redirect from the granted host to any of them is E_DENIED", async () => {
  for (const host of spellings) {
    const to = encodeURIComponent(`http://${host}:${port}/count/${denied}`);
    await expect(net("request", { url: `${base}/redirect?to=${to}` })).rejects.toMatchObject({ code: "E_DENIED" });
  }
});

live("a header that would split into two is E_BAD_PARAMS at its field", async () => {
  const url = `${base}/count/${denied}`;
  await expect(net("request", { url, headers: { "X-Trace": "a\r\nX-Injected: 1" } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/headers/X-Trace" });
  await expect(net("download", { url, path: "got.bin", headers: { "X-Trace\r\nX-Injected": "1" } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/headers/X-Trace\r\nX-Injected" });
  await expect(net("request", { url, headers: { "X-Trace": "a\u0000b" } }))
    .rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/headers/X-Trace" });
});

live("the granted host answers, as written and with a trailing dot", async () => {
  const res = await net("request", { url: `${base}/count/${granted}` });
  expect(res.status).toBe(200);
  const dotted = await net("request", { url: `http://API.example.test.:${port}/small` });
  expect(dotted.url).toBe(`${base}/small`);
});
