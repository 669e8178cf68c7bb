// @grants bridge
// Grants are denied by default: this file is granted only the bridge, which is always
// allowed, so the device target answers E_DENIED.

test("a target the app is not granted is E_DENIED", async () => {
  await expect(Hybrid.call("device", "info", {})).rejects.toMatchObject({ code: "E_DENIED", target: "device", action: "info" });
});

test("E_DENIED comes before the action is looked up", async () => {
  await expect(Hybrid.call("device", "no-such-action", {})).rejects.toMatchObject({ code: "E_DENIED", target: "device" });
});

test("the bridge target is always allowed", async () => {
  await expect(Hybrid.call("bridge", "echo", { ok: 1 })).resolves.toEqual({ ok: 1 });
});

test("Hybrid.targets says which targets are granted", async () => {
  const targets = await Hybrid.targets();
  expect(targets.bridge.granted).toBe(true);
  expect(targets.device.granted).toBe(false);
});
