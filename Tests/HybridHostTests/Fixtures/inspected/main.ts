const kv = Hybrid.kv;
interface Tally { count: number }

async function main(): Promise<void> {
  await kv.set({ bucket: "t", key: "before", value: 1 });
  const pending = kv.get({ bucket: "t", key: "before" });
  const timer = new Promise<string>((resolve) => setTimeout(() => resolve("timer"), 10));
  const tally: Tally = { count: 2 };
  tally.count += 1; // the test's breakpoint (line 9)
  const got = await pending;
  await kv.set({ bucket: "t", key: "after", value: tally.count });
  console.log("answered", JSON.stringify(got), await timer, tally.count);
}

main();
