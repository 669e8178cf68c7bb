import Foundation
import Glibc
import JSON
import SystemIO
import Testing
@testable import Views

@Suite("resize")
struct ResizeTests {
    static let view = ##"{"type": "box", "style": {"border": "single"}, "children": [{"type": "text", "text": "a note that wraps when narrow"}, {"type": "input", "id": "title", "value": "${draft}"}, {"type": "list", "id": "tasks", "items": "${tasks}", "key": "id", "style": {"grow": 1, "maxHeight": "100%"}, "template": {"type": "text", "text": "${title}"}}]}"##

    @Test("a resized document lays out again at the new size and repaints the whole canvas")
    func document() throws {
        let document = try ViewDocument(json: JSONParser.parse(Self.view), data: taskItems(100).merging(["draft": "typed"]), width: 40, height: 8)
        #expect(document.canvas.plainText.contains("│a note that wraps when narrow"))
        let change = document.resize(width: 20, height: 12)
        #expect(change.resized)
        #expect(document.canvas.width == 20 && document.canvas.height == 12)
        let rows = document.canvas.plainText.split(separator: "\n").map(String.init)
        #expect(rows[1] == "│a note that wraps │")
        #expect(rows[2] == "│when narrow       │")
        #expect(rows[3].hasPrefix("│typed"))
        // The list's window follows its new height: it shows task 0 to task 6, and no gap.
        #expect(rows[10].hasPrefix("│task 6 "))
        // The same as a document made at that size.
        let fresh = try ViewDocument(json: JSONParser.parse(Self.view), data: taskItems(100).merging(["draft": "typed"]), width: 20, height: 12)
        #expect(fresh.canvas == document.canvas)
    }

    @Test("the session resizes a view that follows the terminal, draws it once, and tells JS")
    func session() throws {
        let session = ViewSession()
        let spec = try ViewDecoder.decode(JSONParser.parse(Self.view))
        _ = try session.mount(spec: spec, data: taskItems(3).merging(["draft": ""]), width: nil, height: nil, output: "none", nodeLimit: .max)
        #expect(session.frame()?.width == 80)
        let resized = try session.resize(columns: 24, rows: 10)
        #expect(resized.event == ["type": "resize", "columns": 24, "rows": 10])
        #expect(resized.width == 24)
        #expect(session.frame()?.width == 24)
        #expect(session.events.pendingCount == 1)
        // A mount that gave its width keeps it; the event still comes.
        _ = try session.mount(spec: spec, data: taskItems(3).merging(["draft": ""]), width: 30, height: nil, output: "none", nodeLimit: .max)
        #expect(try session.resize(columns: 100, rows: 40).width == 30)
        #expect(session.events.pendingCount == 1)
        session.unmount()
        #expect(throws: ViewSession.SimulateFailure.self) { try session.resize(columns: 10, rows: 10) }
    }

    @Test("a resize redraws over the old frame: no clearing first, only what lies beyond the canvas erased")
    func redraw() throws {
        let document = try ViewDocument(json: JSONParser.parse(Self.view), data: taskItems(3).merging(["draft": ""]), width: 20)
        let frame = FrameWriter.redraw(document.canvas, mode: .none, columns: 30, rows: 24)
        #expect(frame.hasPrefix(FrameWriter.beginSync + "\u{1B}[1;1H"))
        #expect(frame.hasSuffix("\u{1B}[\(document.canvas.height + 1);1H\u{1B}[J" + FrameWriter.endSync))
        #expect(!frame.contains("\u{1B}[2J"))
        #expect(frame.components(separatedBy: "\u{1B}[K").count - 1 == document.canvas.height)   // each row's right of the canvas
        let exact = FrameWriter.redraw(document.canvas, mode: .none, columns: 20, rows: document.canvas.height)
        #expect(!exact.contains("\u{1B}[K") && !exact.contains("\u{1B}[J"))
    }

    @Test("a burst of SIGWINCH is handled once, after it settles")
    func signalsCoalesce() async throws {
        let calls = Locked(0)
        WindowSizeSignal.watch { calls.withLock { $0 += 1 } }
        defer { WindowSizeSignal.watch(nil) }
        for _ in 0..<5 { kill(getpid(), SIGWINCH) }
        try await waitFor { calls.value >= 1 }
        kill(getpid(), SIGWINCH)
        try await waitFor { calls.value >= 2 }
        #expect(calls.value == 2)
    }

    func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "timed out")
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

extension JSONValue {
    /// An object with `other`'s members added.
    func merging(_ other: JSONObject) -> JSONValue {
        guard case .object(var object) = self else { return self }
        for (key, value) in other { object[key] = value }
        return .object(object)
    }
}
