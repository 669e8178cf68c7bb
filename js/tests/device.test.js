// @grants device
// The device service, through the bridge: shapes per services/device.json.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("info describes the machine", async () => {
  const info = await Hybrid.call("device", "info", {});
  expect(Object.keys(info).sort()).toEqual([
    "arch", "cpuCount", "engine", "hostVersion", "hostname", "kernel", "languageTag", "locale", "memoryAvailable",
    "memoryTotal", "osName", "osVersion", "platform", "timezone", "uptimeSeconds",
  ]);
  expect(info).toMatchObject({
    platform: "linux",
    osName: expect.any(String),
    kernel: expect.any(String),
    arch: expect.any(String),
    hostname: expect.any(String),
    locale: expect.any(String),
    timezone: expect.any(String),
    hostVersion: expect.any(String),
    engine: expect.stringContaining("JavaScriptCore"),
  });
  expect(Number.isInteger(info.cpuCount)).toBe(true);
  expect(info.cpuCount).toBeGreaterThanOrEqual(1);
  expect(info.memoryTotal).toBeGreaterThan(0);
  expect(info.memoryAvailable).toBeGreaterThan(0);
  expect(info.memoryAvailable).toBeLessThanOrEqual(info.memoryTotal);
  expect(info.uptimeSeconds).toBeGreaterThan(0);
});

test("battery says whether there is one, with level and charging null when absent", async () => {
  const battery = await Hybrid.call("device", "battery", {});
  expect(Object.keys(battery).sort()).toEqual(["charging", "level", "present"]);
  expect(typeof battery.present).toBe("boolean");
  if (battery.present) {
    if (battery.level !== null) {
      expect(battery.level).toBeGreaterThanOrEqual(0);
      expect(battery.level).toBeLessThanOrEqual(1);
    }
  } else {
    expect(battery.level).toBeNull();
    expect(battery.charging).toBeNull();
  }
});

test("screen gives the terminal's size and colours", async () => {
  const screen = await Hybrid.call("device", "screen", {});
  expect(Object.keys(screen).sort()).toEqual(["colors", "columns", "rows"]);
  expect(screen.columns).toBeGreaterThanOrEqual(1);
  expect(screen.rows).toBeGreaterThanOrEqual(1);
  expect([0, 8, 16, 256, 16777216]).toContain(screen.colors);
});

test("languageTag is a BCP 47 tag", async () => {
  const { value } = await Hybrid.call("device", "languageTag", {});
  expect(value).toMatch(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/);
});

test("id is a version 4 UUID, the same on every call", async () => {
  const first = await Hybrid.call("device", "id", {});
  expect(first.id).toMatch(UUID);
  const again = await Promise.all([1, 2, 3].map(() => Hybrid.call("device", "id", {})));
  for (const answer of again) expect(answer).toEqual(first);
});

test("actions take no params: an unexpected one is E_BAD_PARAMS with its path", async () => {
  await expect(Hybrid.call("device", "info", { verbose: true })).rejects.toMatchObject({ code: "E_BAD_PARAMS", path: "/verbose" });
});
