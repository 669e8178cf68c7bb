// @grants patch
// The patch service as an app sees it. A single-file app has no patchKeys, so it runs
// its shipped code: the Swift suite PatchesTests drives signed patches through a running app.

describe("patch service", () => {
  test("current reports the shipped code before any patch", async () => {
    await expect(Hybrid.call("patch", "current")).resolves.toEqual({ patchVersion: null, state: "shipped", epoch: 0, highestVersion: 0 });
  });

  test("ready with no patch in effect changes nothing", async () => {
    await expect(Hybrid.call("patch", "ready")).resolves.toMatchObject({ patchVersion: null, state: "shipped" });
  });

  test("history is empty in a fresh data dir", async () => {
    await expect(Hybrid.call("patch", "history")).resolves.toEqual({ records: [] });
  });

  test("check refuses an endpoint whose host the app was not granted", async () => {
    await expect(Hybrid.call("patch", "check", { url: "https://patches.example.com/demo" }))
      .rejects.toMatchObject({ code: "E_DENIED" });
  });

  test("check {} needs a url when app.json names no patch server", async () => {
    await expect(Hybrid.call("patch", "check", {})).rejects.toMatchObject({ code: "E_BAD_PARAMS", message: expect.stringContaining("patches") });
  });

  test("configure needs app.json patches: there is no server to report to", async () => {
    await expect(Hybrid.call("patch", "configure", { token: "t" })).rejects.toMatchObject({ code: "E_FAILED", details: { reason: "no_server" } });
  });

  test("configure takes a token or null, nothing else", async () => {
    await expect(Hybrid.call("patch", "configure", {})).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
    await expect(Hybrid.call("patch", "configure", { token: 5 })).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
    await expect(Hybrid.call("patch", "configure", { token: "" })).rejects.toMatchObject({ code: "E_BAD_PARAMS" });
  });
});

describe("module.hot", () => {
  test("every module can accept replacement and register dispose handlers", () => {
    expect(typeof module.hot.accept).toBe("function");
    expect(typeof module.hot.dispose).toBe("function");
    expect(module.hot.data).toEqual({});
  });

  test("the registry reports the patch version and epoch", () => {
    expect(__hybridModules.patchVersion).toBe(0);
    expect(__hybridModules.epoch).toBe(0);
  });
});
