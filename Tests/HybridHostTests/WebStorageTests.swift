import Foundation
import Glibc
import HostTesting
import HybridHost
import JSON
import Testing

/// localStorage over the app's kv store, navigator and performance (issue 28, items 5 and 6),
/// through the real `hybrid run`: what a run keeps is there for the next run of the same data
/// folder, a write that has returned survives the process being killed, the quota is
/// `quotas.kvBytes`. The Storage interface's own behaviour is js/tests/web-storage.test.js.
@Suite("localStorage keeps an app's items in its kv store; navigator and performance")
struct WebStorageTests {
    /// Writes `script` into `folder` and runs it with the data folder `folder/data`.
    func run(_ script: String, in folder: TemporaryFolder, environment: [String: String] = [:]) async throws -> HybridProcess.Result {
        let path = try folder.write("main.js", script)
        return try await HybridProcess.run(["run", path, "--data-dir", folder.path + "/data"], timeLimit: .seconds(60), environment: environment)
    }

    /// The one line of JSON `result` printed.
    func json(_ result: HybridProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try #require(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return try JSONParser.parse(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("a module that builds a URL, decodes a GBK body, clones its state and keeps a token in localStorage reads the token back on its second run")
    func acceptance() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let script = """
            const url = new URL("https://api.example.com/v1/items");
            url.searchParams.set("q", "茶 tea");
            url.searchParams.set("page", "2");
            const body = new TextDecoder("gbk").decode(new Uint8Array([0xc4, 0xe3, 0xba, 0xc3]));
            const state = structuredClone({ href: url.href, body, tags: new Set(["a", "b"]) });
            const previous = localStorage.getItem("token");
            if (previous === null) localStorage.setItem("token", "t-" + state.body);
            console.log(JSON.stringify({ href: state.href, body: state.body, tags: [...state.tags], previous }));

            """
        let first = try json(try await run(script, in: folder))
        #expect(first == ["href": "https://api.example.com/v1/items?q=%E8%8C%B6+tea&page=2", "body": "你好", "tags": ["a", "b"], "previous": .null])
        let second = try json(try await run(script, in: folder))
        #expect(second["previous"] == "t-你好")
    }

    @Test("localStorage persists across runs of one data folder; sessionStorage does not; another folder is another storage")
    func persistsAcrossRuns() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let script = """
            const seen = { local: localStorage.getItem("run"), session: sessionStorage.getItem("run"), keys: Object.keys(localStorage) };
            const run = Number(seen.local ?? 0) + 1;
            localStorage.run = run;
            localStorage.setItem("run " + run, "");
            if (run === 2) localStorage.removeItem("run 1");
            sessionStorage.run = run;
            console.log(JSON.stringify(seen));

            """
        #expect(try json(try await run(script, in: folder)) == ["local": .null, "session": .null, "keys": []])
        #expect(try json(try await run(script, in: folder)) == ["local": "1", "session": .null, "keys": ["run", "run 1"]])
        #expect(try json(try await run(script, in: folder)) == ["local": "2", "session": .null, "keys": ["run", "run 2"]])
        let elsewhere = TemporaryFolder(prefix: "web-storage")
        defer { elsewhere.remove() }
        #expect(try json(try await run(script, in: elsewhere)) == ["local": .null, "session": .null, "keys": []])
    }

    @Test("strings come back from the file exactly: lone surrogates, every plane, quotes, escapes and NULs, as keys and as values")
    func exactStrings() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let script = #"""
            const strings = ["", "\"quoted\" \\ /", "tab\tline\n\r\0\u001f\u007f", "日本語 🎉 é", "\uD800", "a\uDC00b", "\uDBFF\uDFFF", "\uDC00\uD800"];
            const codes = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
            if (localStorage.length === 0) {
              strings.forEach((s, i) => localStorage.setItem(s, s + i));
              console.log("null");
            } else {
              console.log(JSON.stringify(strings.map((s, i) => [localStorage.key(i) === s, localStorage.getItem(s) === s + i, codes(localStorage.key(i))])));
            }

            """#
        _ = try json(try await run(script, in: folder))
        let read = try json(try await run(script, in: folder))
        let expected: [[UInt16]] = ["", "\"quoted\" \\ /", "tab\tline\n\r\0\u{1f}\u{7f}", "日本語 🎉 é"].map { Array($0.utf16) }
            + [[0xD800], [0x61, 0xDC00, 0x62], [0xDBFF, 0xDFFF], [0xDC00, 0xD800]]
        let items = try #require(read.arrayValue)
        #expect(items.count == expected.count)
        for (item, codes) in zip(items, expected) {
            #expect(item == [true, true, .array(codes.map { .number(Double($0)) })])
        }
    }

    @Test("a setItem or removeItem that has returned survives the process being killed right after", arguments: [SIGKILL, SIGTERM])
    func survivesKill(signal: Int32) async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let writer = try folder.write("writer.js", """
            for (let i = 0; i < 500; i++) localStorage.setItem("k" + i, "v" + i);
            localStorage.removeItem("k0");
            localStorage.last = "written";
            console.log("written");
            while (true) {}

            """)
        // A child inherits the spawning thread's signal mask, in which the test process may block
        // SIGTERM: unblocked for the spawn, so the child meets SIGTERM as a user's process does.
        var unblocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
        let child: LiveProcess
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            child = try LiveProcess(HybridProcess.binary.path, ["run", writer, "--data-dir", folder.path + "/data"])
        }
        let written = await child.wait { $0.outputLines.contains { $0.text == "written" } || $0.exitStatus != nil }
        try #require(written && child.output.outputLines.contains { $0.text == "written" }, "\(child.output)")
        kill(child.processIdentifier, signal)
        #expect(await child.wait { $0.exitStatus != nil }, "the signal ended it")
        child.stop()
        let read = try json(try await run("""
            console.log(JSON.stringify([localStorage.length, localStorage.getItem("k0"), localStorage.getItem("k499"), localStorage.last]));

            """, in: folder))
        #expect(read == [500, .null, "v499", "written"])
    }

    @Test("items set before an uncaught error are kept")
    func survivesUncaughtError() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let failed = try await run("""
            localStorage.setItem("before", "kept");
            setTimeout(() => { localStorage.setItem("in a timer", "kept too"); throw new Error("boom"); }, 0);

            """, in: folder)
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.standardError.contains("boom"), "\(failed)")
        let read = try json(try await run(#"console.log(JSON.stringify([localStorage.before, localStorage["in a timer"]]));"#, in: folder))
        #expect(read == ["kept", "kept too"])
    }

    @Test("past quotas.kvBytes, setItem throws a QuotaExceededError naming the quota and changes nothing; sessionStorage has the same quota")
    func quota() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        try #"{"name": "quota", "main": "main.js", "quotas": {"kvBytes": 65536}}"#.write(toFile: folder.path + "/app.json", atomically: true, encoding: .utf8)
        try folder.write("main.js", """
            const describe = (e) => [e instanceof DOMException, e.name, e.code, e.message];
            const out = {};
            try { localStorage.setItem("big", "x".repeat(70000)); } catch (e) { out.big = describe(e); }
            localStorage.setItem("keep", "kept");
            out.stored = 0;
            try {
              for (let i = 0; i < 1000; i++) { localStorage.setItem("k" + i, "y".repeat(1000)); out.stored++; }
            } catch (e) { out.full = describe(e); }
            try { localStorage.setItem("keep", "z".repeat(2000)); } catch (e) { out.replace = e.name; }
            out.after = [localStorage.length, localStorage.getItem("keep"), localStorage.getItem("big")];
            try { sessionStorage.setItem("big", "x".repeat(70000)); } catch (e) { out.session = describe(e); }
            console.log(JSON.stringify(out));

            """)
        let data = folder.path + "/data"
        let first = try json(try await HybridProcess.run(["run", folder.path, "--data-dir", data], timeLimit: .seconds(60)))
        let stored = try #require(first["stored"]?.numberValue)
        #expect(stored > 0 && stored < 65, "\(first)")
        for name in ["big", "full", "session"] {
            let error = try #require(first[name]?.arrayValue, "\(name): \(first)")
            #expect(Array(error.prefix(3)) == [true, "QuotaExceededError", 22], "\(name): \(error)")
            let message = error.last?.stringValue ?? ""
            #expect(message.contains("65536") && message.contains("quotas.kvBytes"), "\(name): \(message)")
        }
        #expect(first["replace"] == "QuotaExceededError")
        #expect(first["after"] == [.number(stored + 1), "kept", .null])
        // What the failed writes left is what memory held.
        try folder.write("main.js", "console.log(JSON.stringify([localStorage.length, localStorage.keep]));\n")
        let second = try json(try await HybridProcess.run(["run", folder.path, "--data-dir", data], timeLimit: .seconds(60)))
        #expect(second == [.number(stored + 1), "kept"])
    }

    @Test("localStorage writes the kv file the kv service writes, in a bucket no kv call can name, and a run that never uses it opens no file")
    func oneStore() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let idle = try await run("console.log(typeof localStorage, typeof Storage);", in: folder)
        #expect(idle.standardOutput == "object function\n", "\(idle)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/data/.kv.sqlite"))
        let path = try folder.write("kv.js", """
            (async () => {
              await Hybrid.call("kv", "set", { bucket: "b", key: "k", value: 1 });
              localStorage.setItem("k", "local");
              const refused = await Hybrid.call("kv", "get", { bucket: "", key: "k" }).then(() => "answered", (e) => e.code);
              await Hybrid.call("kv", "set", { bucket: "b", key: "k", value: 2 });
              console.log(JSON.stringify([refused, localStorage.k, (await Hybrid.kv.get({ bucket: "b", key: "k" })).value]));
            })();

            """)
        let result = try await HybridProcess.run(["run", path, "--data-dir", folder.path + "/data", "--grant", "kv"], timeLimit: .seconds(60))
        #expect(try json(result) == ["E_BAD_PARAMS", "local", 2])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/data").filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(files.filter { $0.hasPrefix(".kv") } == [".kv.sqlite"], "\(files)")
    }

    @Test("navigator.language is the locale's language tag (LC_ALL, LC_MESSAGES, LANG), device.languageTag's", arguments: [
        (["LANG": "de_DE.UTF-8"], "de-DE"),
        (["LC_ALL": "pt_BR", "LANG": "de_DE.UTF-8"], "pt-BR"),
        (["LC_MESSAGES": "fr_CA.UTF-8", "LANG": "de_DE.UTF-8"], "fr-CA"),
        (["LANG": "sr_RS@latin"], "sr-Latn-RS"),
        (["LANG": "C.UTF-8"], "en-US"),
        (["LANG": "POSIX"], "en-US"),
        (["LANG": ""], "en-US"),
    ])
    func language(environment: [String: String], expected: String) async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let unset = ["LC_ALL": "", "LC_MESSAGES": "", "LANG": ""]
        let path = try folder.write("main.js", """
            Hybrid.call("device", "languageTag").then(({ value }) => console.log(JSON.stringify([navigator.language, navigator.languages, value])));

            """)
        let result = try await HybridProcess.run(["run", path, "--data-dir", folder.path + "/data", "--grant", "device"],
                                                 timeLimit: .seconds(60), environment: unset.merging(environment) { $1 })
        #expect(try json(result) == [.string(expected), [.string(expected)], .string(expected)])
    }

    @Test("navigator names the host, its version and the machine, and counts the CPUs online")
    func navigatorValues() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let read = try json(try await run("console.log(JSON.stringify([navigator.userAgent, navigator.platform, navigator.hardwareConcurrency, navigator.onLine]));",
                                          in: folder))
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let userAgent = try #require(read[0]?.stringValue)
        #expect(userAgent.hasPrefix("HybridHost/\(HostServices.hostVersion) JavaScriptCore/"), "\(userAgent)")
        #expect(userAgent.hasSuffix(" (Linux \(machine))"), "\(userAgent)")
        #expect(read[1] == .string("Linux \(machine)"))
        #expect(read[2] == .number(Double(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #expect(read[3] == true)
    }

    @Test("performance.timeOrigin is when the run started, on the wall clock, and now() counts from it")
    func timeOrigin() async throws {
        let folder = TemporaryFolder(prefix: "web-storage")
        defer { folder.remove() }
        let before = Date().timeIntervalSince1970 * 1000
        let read = try json(try await run("console.log(JSON.stringify([performance.timeOrigin, performance.now(), Date.now()]));", in: folder))
        let after = Date().timeIntervalSince1970 * 1000
        let origin = try #require(read[0]?.numberValue)
        let now = try #require(read[1]?.numberValue)
        let date = try #require(read[2]?.numberValue)
        #expect(origin >= before - 1 && origin <= after, "\(before) \(origin) \(after)")
        #expect(now > 0 && origin + now <= after)
        // Date.now() is whole milliseconds, read just after now().
        #expect(abs(origin + now - date) < 5, "\(origin) + \(now) vs \(date)")
    }
}
