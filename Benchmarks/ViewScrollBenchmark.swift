import JSON
import SystemIO
import Views

/// `hybrid-bench view-scroll`: a scroll step (one row down, its frame changes written) of a list of
/// 1,000,000 items given a height of 40 rows, against the same step of a list of 100 items in the
/// same run; then the mount of each (expand, layout, paint of the window on screen) and an update
/// with new data for the whole list. The goal: a step of the long list within 1 ms, and within a
/// small factor of the short one's, since both expand, lay out and paint only what shows.
public struct ViewScrollBenchmark {
    let rounds: Int

    public init(iterations: Int?) {
        rounds = iterations ?? 2_000
    }

    static let viewText = """
        {"type": "box", "style": {"border": "rounded"}, "children": [
          {"type": "text", "text": "Tasks", "style": {"bold": true}},
          {"type": "list", "id": "tasks", "items": "${tasks}", "key": "id", "style": {"height": 40},
           "template": {"type": "stack", "direction": "row", "gap": 1, "children": [
             {"type": "button", "id": "done-${id}", "text": "x", "on": {"press": "tasks.toggle"}},
             {"type": "text", "text": "${title}", "style": {"grow": 1}},
             {"type": "text", "text": "${due}", "style": {"dim": true}}]}}]}
        """

    static func data(_ count: Int, word: String = "task") -> JSONValue {
        var tasks: [JSONValue] = []
        tasks.reserveCapacity(count)
        for i in 0..<count {
            tasks.append(["id": .number(Double(i)), "title": .string("\(word) number \(i)"), "due": "2026-12-01"])
        }
        return ["tasks": .array(tasks)]
    }

    static func ms(_ start: UInt64, _ end: UInt64) -> Double { Double(end - start) / 1e6 }

    struct Figures {
        var mount = 0.0
        var step: [Double] = []
        var update = 0.0
        var nodes = 0
        var bytes = 0
    }

    func measure(_ count: Int) -> Figures {
        var figures = Figures()
        let data = Self.data(count)
        let view = try! JSONParser.parse(Self.viewText)
        let m0 = MonotonicClock.now()
        let document = try! ViewDocument(json: view, data: data, width: 80, height: 44)
        figures.mount = Self.ms(m0, MonotonicClock.now())
        figures.nodes = document.root.nodeCount
        let maxOffset = document.node(id: "tasks")!.viewport!.maxOffset
        // Down one row a step, from the middle (the top for the short list); back to the top at the end.
        var offset = count > 1_000 ? count / 2 : 0
        for _ in 0..<rounds {
            offset = offset >= maxOffset ? 0 : offset + 1
            let node = document.node(id: "tasks")!
            let t0 = MonotonicClock.now()
            let before = document.canvas
            let rects = document.scroll(node, to: offset)
            let output = FrameWriter.changes(from: before, to: document.canvas, in: rects, mode: .truecolor)
            let t1 = MonotonicClock.now()
            figures.step.append(Self.ms(t0, t1))
            figures.bytes = max(figures.bytes, output.utf8.count)
        }
        let fresh = Self.data(count, word: "job")
        let u0 = MonotonicClock.now()
        _ = try! document.update(data: fresh)
        figures.update = Self.ms(u0, MonotonicClock.now())
        precondition(document.root.nodeCount < 1_000, "the list expanded more than its window")
        return figures
    }

    public func run() {
        let short = measure(100)
        let long = measure(1_000_000)
        let sorted = { (xs: [Double]) in xs.sorted() }
        let med = { (xs: [Double]) in sorted(xs)[xs.count / 2] }
        let p99 = { (xs: [Double]) in sorted(xs)[min(xs.count - 1, xs.count * 99 / 100)] }
        print("bench view-scroll: a list 40 rows high in an 80x44 canvas, \(rounds) scroll steps of one row each")
        print(BenchmarkTable.row("mount, 100 items (\(short.nodes) nodes expanded)", short.mount, unit: "ms"))
        print(BenchmarkTable.row("mount, 1,000,000 items (\(long.nodes) nodes expanded)", long.mount, unit: "ms"))
        print(BenchmarkTable.row("scroll step, 100 items, median", med(short.step), unit: "ms"))
        print(BenchmarkTable.row("scroll step, 100 items, p99", p99(short.step), unit: "ms"))
        print(BenchmarkTable.row("scroll step, 1,000,000 items, median", med(long.step), unit: "ms (goal <= 1)"))
        print(BenchmarkTable.row("scroll step, 1,000,000 items, p99", p99(long.step), unit: "ms (goal <= 1)"))
        print(BenchmarkTable.row("update with new data, 100 items", short.update, unit: "ms"))
        print(BenchmarkTable.row("update with new data, 1,000,000 items", long.update, unit: "ms"))
        print("ratio step 1,000,000 / 100 items: \(BenchmarkTable.format(med(long.step) / med(short.step)))x median, "
              + "\(BenchmarkTable.format(p99(long.step) / p99(short.step)))x p99; at most \(long.bytes) bytes written per step")
    }
}
