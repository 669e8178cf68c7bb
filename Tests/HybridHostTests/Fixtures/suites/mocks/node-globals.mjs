// For node only: node:test's test and mock as the globals `hybrid test` gives a test file, so
// that mock-api.test.js runs the same under both (TestMockTests compares what each prints).
import { test, mock } from "node:test";
Object.assign(globalThis, { test, mock });
