import Engine
import JSON
import Testing

@Suite("event loop")
struct EventLoopTests {
    @Test("timers run by due time, then in the order they were set")
    func timerOrder() async throws {
        try await withEngine { (host) async throws in
            // The 300 ms timer is set before the 5 ms one; a machine would have to stall for
            // 295 ms between two statements to swap them.
            host.start("""
                globalThis.order = [];
                setTimeout(() => order.push("first 0"), 0);
                setTimeout(() => order.push("second 0"), 0);
                setTimeout(() => order.push("third 0"), 0);
                setTimeout(() => order.push("300"), 300);
                setTimeout(() => order.push("5"), 5);
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("order") == ["first 0", "second 0", "third 0", "5", "300"])
        }
    }

    @Test("timers pass their extra arguments")
    func timerArguments() async throws {
        try await withEngine { (host) async throws in
            host.start("globalThis.got = null; setTimeout((a, b) => { got = [a, b]; }, 0, 'x', 2);")
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("got") == ["x", 2])
        }
    }

    @Test("setInterval repeats until clearInterval, then the loop goes idle")
    func interval() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                globalThis.ticks = 0;
                const id = setInterval(() => { ticks += 1; if (ticks === 3) clearInterval(id); }, 1);
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("ticks") == 3)
        }
    }

    @Test("clearTimeout stops a timer from firing, and clearing twice or clearing nonsense is harmless")
    func clearTimeout() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                globalThis.fired = [];
                const a = setTimeout(() => fired.push("a"), 1);
                setTimeout(() => fired.push("b"), 1);
                clearTimeout(a);
                clearTimeout(a);
                clearTimeout(undefined);
                clearTimeout("nonsense");
                clearTimeout(1e300);
                clearInterval(-1e300);
                clearTimeout(NaN);
                clearTimeout(-7.5);
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("fired") == ["b"])
        }
    }

    @Test("a timer may clear a later timer that is already due")
    func clearDueTimer() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                globalThis.fired = [];
                let b;
                setTimeout(() => { fired.push("a"); clearTimeout(b); }, 0);
                b = setTimeout(() => fired.push("b"), 0);
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("fired") == ["a"])
        }
    }

    @Test("microtasks are drained after each task: a .then set in a timer runs before the next timer")
    func microtasksBetweenTasks() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                globalThis.log = [];
                setTimeout(() => {
                    log.push("timer 1");
                    Promise.resolve().then(() => log.push("then in timer 1"));
                    queueMicrotask(() => log.push("microtask in timer 1"));
                }, 0);
                setTimeout(() => log.push("timer 2"), 0);
                Promise.resolve().then(() => log.push("then in main"));
                log.push("main");
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("log") == ["main", "then in main", "timer 1", "then in timer 1", "microtask in timer 1", "timer 2"])
        }
    }

    @Test("async functions and awaits across timers run to completion")
    func asyncAwait() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                globalThis.result = null;
                const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
                (async () => { await wait(1); await wait(1); result = "done"; })();
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("result") == "done")
        }
    }

    @Test("an unhandled rejection fails the run", arguments: [
        ("Promise.reject(new RangeError('no stock'))", "RangeError", "no stock"),
        ("(async () => { throw new Error('async boom'); })()", "Error", "async boom"),
        ("Promise.reject('just text')", "UnhandledPromiseRejection", "just text"),
    ])
    func unhandledRejection(source: String, name: String, message: String) async throws {
        try await withEngine { (host) async throws in
            host.start(source)
            let failure = try #require(await host.idle().failure)
            #expect(failure.name == name)
            #expect(failure.message == message)
        }
    }

    @Test("a rejection handled in the same task does not fail the run")
    func handledRejection() async throws {
        try await withEngine { (host) async throws in
            host.start("globalThis.caught = null; Promise.reject(new Error('x')).catch((e) => { caught = e.message; });")
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("caught") == "x")
        }
    }

    @Test("an uncaught throw in a timer fails the run with a stack naming the functions")
    func throwInTimer() async throws {
        try await withEngine { (host) async throws in
            host.start("""
                function explode() { throw new TypeError("kaboom"); }
                setTimeout(function onTick() { explode(); }, 1);
                setTimeout(function never() { globalThis.ranAfter = true; }, 50);
                """, url: "/app/timer.js")
            let failure = try #require(await host.idle().failure)
            #expect(failure.name == "TypeError")
            #expect(failure.message == "kaboom")
            #expect(failure.stack.contains("at explode (/app/timer.js:1:"))
            #expect(failure.stack.contains("at onTick (/app/timer.js:2:"))
            #expect(failure.location?.hasPrefix("/app/timer.js:1:") == true)
        }
    }

    @Test("an uncaught throw in the main script fails the run")
    func throwInMain() async throws {
        try await withEngine { (host) async throws in
            host.start("setTimeout(() => {}, 1);\nthrow new Error('at start');", url: "/app/main.js")
            let failure = try #require(await host.idle().failure)
            #expect(failure.message == "at start")
            #expect(failure.line == 2)
        }
    }

    @Test("the time limit stops a runaway loop and the outcome says so")
    func timeLimit() async throws {
        // No bound on the wall time: the watchdog counts the JS thread's CPU time, which a loaded
        // machine hands out slowly. That the run ended as a time limit is the point.
        try await withEngine(timeLimit: 0.5) { (host) async throws in
            host.start("setTimeout(function spin() { while (true) {} }, 0);")
            let failure = try #require(await host.idle().failure)
            #expect(failure.isTimeLimit)
        }
    }

    @Test("the time limit stops a runaway loop in the main script too")
    func timeLimitInMain() async throws {
        try await withEngine(timeLimit: 0.5) { (host) async throws in
            host.start("for (;;) {}")
            let failure = try #require(await host.idle().failure)
            #expect(failure.isTimeLimit)
        }
    }

    @Test("the time limit is per task: many short tasks may together run longer")
    func timeLimitPerTask() async throws {
        try await withEngine(timeLimit: 0.5) { (host) async throws in
            host.start("""
                globalThis.runs = 0;
                const spin = () => { const until = Date.now() + 50; while (Date.now() < until) {} };
                const id = setInterval(() => { spin(); runs += 1; if (runs === 15) clearInterval(id); }, 0);
                """)
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("runs") == 15)
        }
    }

    @Test("work posted from other threads runs on the JS thread, and the loop waits for it")
    func postedFromOtherThreads() async throws {
        try await withEngine { (host) async throws in
            try await host.define("received", [])
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<100 {
                    group.addTask {
                        host.engine.post { context in
                            _ = try? context.evaluate("received.push(\(i))", url: "/virtual/post.js")
                        }
                    }
                }
            }
            #expect(await host.idle() == .idle)
            let received = try await host.evaluate("received.slice().sort((a, b) => a - b)")
            #expect(received == .array((0..<100).map { .number(Double($0)) }))
        }
    }

    @Test("idle answers at once when there is nothing to do, and again after more work")
    func idleTwice() async throws {
        try await withEngine { (host) async throws in
            #expect(await host.idle() == .idle)
            host.start("setTimeout(() => { globalThis.done = true; }, 1);")
            #expect(await host.idle() == .idle)
            #expect(try await host.evaluate("done") == true)
        }
    }
}
