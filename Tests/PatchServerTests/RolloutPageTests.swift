import Foundation
import HostTesting
import Hummingbird
import JSON
import PatchProtocol
import PatchServer
import SystemIO
import Testing

/// The rollout page (`GET /`): what a publisher's browser gets, signed in with a token kept in a
/// cookie, and nothing without one.
@Suite struct RolloutPageTests {
    /// A server with patch 1 confirmed by three devices and rolled back by one, and patch 2 halted.
    func seeded(_ store: TestStore) async throws -> PatchServerHarness {
        let harness = try await PatchServerHarness(store)
        try await harness.addApp()
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 1, modules: ["a.js": "exports.a = 1\n"]), rollout: 50).status == 201)
        for device in ["d1", "d2", "d3", "d4"] {
            #expect(try await harness.report(device, version: 1, .applied).status == 200)
            #expect(try await harness.report(device, version: 1, device == "d4" ? .rolledBack : .confirmed, reason: device == "d4" ? "the <total> & tax" : nil).status == 200)
        }
        #expect(try await harness.publish(try PatchServerHarness.patch(version: 2, modules: ["a.js": "exports.a = 2\n"])).status == 201)
        #expect(try await harness.request(.post, "/v1/apps/demo/patches/2/halt", token: harness.publisher, body: ["reason": "totals look off"]).status == 200)
        return harness
    }

    @Test("without a token the page is the sign-in form (401); /login keeps a publisher's token in a cookie; the page shows each patch", arguments: TestStore.allCases)
    func signInAndRead(store: TestStore) async throws {
        let harness = try await seeded(store)
        defer { Task { await harness.stop() } }
        let anonymous = try await harness.request(.get, "/", token: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.text.contains(#"<form method="post" action="/login">"#))
        #expect(!anonymous.text.contains("data-patch"))

        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        #expect(try await harness.request(.post, "/login", headers: form, body: "token=forged.token.here").status == 401)
        #expect(try await harness.request(.post, "/login", headers: form, body: "nothing=1").status == 400)
        let device = PatchServerHarness.token(sub: "d1", scopes: ["device:demo"])
        #expect(try await harness.request(.post, "/login", headers: form, body: "token=\(device)").status == 403)
        let signedIn = try await harness.request(.post, "/login", headers: form, body: "token=\(harness.publisher)")
        #expect(signedIn.status == 303)
        #expect(signedIn.headers[.location] == "/")
        let cookie = try #require(signedIn.headers[.setCookie])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))

        let page = try await harness.request(.get, "/", headers: [.cookie: String(cookie.split(separator: ";")[0])], body: nil)
        #expect(page.status == 200)
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(page.text.contains(#"data-patch="1" data-state="active""#))
        #expect(page.text.contains(#"data-patch="2" data-state="halted""#))
        #expect(page.text.contains("Halted by alice: totals look off"))
        #expect(page.text.contains(#"<td data-count="confirmed">3</td>"#))
        #expect(page.text.contains(#"data-confirmed="3" data-rolled-back="1""#))
        // Text from devices is escaped.
        #expect(page.text.contains("the &lt;total&gt; &amp; tax") && !page.text.contains("<total>"))
        // A token for another app sees none of this one's patches.
        let other = try await harness.request(.get, "/", token: PatchServerHarness.token(sub: "bob", scopes: ["publish:other"]))
        #expect(other.status == 200 && !other.text.contains("data-patch"))
    }

    /// Debian's headless Chromium signs in through the form (a page that posts it, as a person
    /// would), then loads the page in the same profile: the DOM it rendered and a screenshot.
    @Test("a real browser signs in and renders the page: its DOM has both patches and the chart, and a screenshot is taken", arguments: TestStore.allCases)
    func inChromium(store: TestStore) async throws {
        let browser = try #require(["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                   "chromium is missing: scripts/install-deps installs it")
        let harness = try await seeded(store)
        defer { Task { await harness.stop() } }
        let folder = TemporaryFolder(prefix: "rollout-page")
        defer { folder.remove() }
        let base = "http://127.0.0.1:\(harness.port)"
        try """
            <form method="post" action="\(base)/login"><input name="token" value="\(harness.publisher)"></form>
            <script>document.forms[0].submit()</script>
            """.write(toFile: folder.path + "/sign-in.html", atomically: true, encoding: .utf8)
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(folder.path)/profile"]
        let signIn = try await Self.run(browser, flags + ["--virtual-time-budget=5000", "--dump-dom", "file://\(folder.path)/sign-in.html"])
        #expect(signIn.status == 0, "\(signIn.errors)")
        let dom = try await Self.run(browser, flags + ["--dump-dom", base + "/"])
        #expect(dom.status == 0, "\(dom.errors)")
        #expect(dom.output.contains("Signed in as <b>alice</b>"), "\(dom.output)")
        #expect(dom.output.contains(#"data-patch="2" data-state="halted""#))
        #expect(dom.output.contains(#"<svg class="chart""#) && dom.output.contains(#"<polyline class="confirmed""#))
        let screenshot = folder.path + "/rollout.png"
        let shot = try await Self.run(browser, flags + ["--screenshot=\(screenshot)", "--window-size=900,1100", base + "/"])
        #expect(shot.status == 0, "\(shot.errors)")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "\(png.count) bytes")
    }

    /// Runs a program to its end off Swift's pool.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await withCheckedThrowingContinuation { continuation in
            DetachedThread.start {
                do {
                    let result = try ChildProcess.run(executable, arguments)
                    continuation.resume(returning: (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errorOutput, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
