// Found by `make fuzz` (target js, two of its seeds replayed in one process): a String object of
// 70,000 characters echoed through the bridge, then an array of 39 objects of 1,000 keys crossing
// as JSON text, and the host dies of SIGSEGV inside JavaScriptCore's JSONStringify, called from
// JSValueCreateJSONString. Small changes to this script (logging the first answer) hid it: it
// depended on when the collector ran. Fixed: arrays handed to JS are built where the collector
// sees them (ARCHITECTURE.md, "Fuzzing").
(async () => {
const a = new String('a'.repeat(70000));
try { await Hybrid.call('bridge', 'echo', {value: a}); } catch (e) { console.log('first', e.code, e.message.slice(0, 100)); }
const b = Array.from({length: 39}, (_, i) => Object.fromEntries(Array.from({length: 1000}, (_, i) => ['k' + i, ({'x y': NaN, '__proto__': 0, a: 0})])));
try { const r = await Hybrid.call('bridge', 'echo', {value: b}); console.log('second ok', JSON.stringify(r).length); } catch (e) { console.log('second', e.code, e.message.slice(0, 100)); }
})();
