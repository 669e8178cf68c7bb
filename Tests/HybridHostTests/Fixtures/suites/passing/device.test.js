// @grants device
test("device info says linux", async () => {
  const info = await Hybrid.call("device", "info", {});
  expect(info.platform).toBe("linux");
});
