import Engine
import JSON
import SystemIO
import Views

/// `hybrid-bench view`: a 10,102-node view tree (100 rows × 20 cells × 4 texts, from list
/// templates, in a box 60 rows high: every row expanded, unlike a list given a height) in a
/// 200×60 canvas.
///
/// (1) full layout + paint + ANSI frame, against the 16 ms of one 60 fps frame; JSON parsing,
/// decoding and data expansion reported apart. (2) a one-attribute update (one JSON Patch
/// `replace` of a visible cell's label): ours (keyed diff, relayout of dirty subtrees, repaint of
/// dirty areas, changed cells written) against the Ink-style baseline in the same run (lay the
/// whole new tree out, repaint the whole canvas, write the whole frame), with the ratio and the
/// bytes each writes.
public struct ViewBenchmark {
    let rounds: Int

    public init(iterations: Int?) {
        rounds = iterations ?? 50
    }

    static let viewText = """
        {"type": "box", "style": {"height": 60}, "children": [{"type": "list", "items": "${rows}", "key": "id",
         "template": {"type": "list", "direction": "row", "items": "${cells}", "key": "id", "style": {"shrink": 0},
                      "template": {"type": "stack", "style": {"width": 10}, "children": [
                        {"type": "text", "text": "${label}", "style": {"bold": true}},
                        {"type": "text", "text": "${value}", "style": {"color": "green"}},
                        {"type": "text", "text": "${note}", "style": {"overflow": "truncate"}},
                        {"type": "text", "text": "r${row}", "style": {"dim": true}}]}}}]}
        """

    static func dataText() -> String {
        var rows: [JSONValue] = []
        for r in 0..<100 {
            var cells: [JSONValue] = []
            for c in 0..<20 {
                cells.append(["id": .number(Double(c)), "label": .string("c\(r).\(c)"), "value": .number(Double(r * 20 + c)),
                              "note": "a note longer than its cell", "row": .number(Double(r))])
            }
            rows.append(["id": .number(Double(r)), "cells": .array(cells)])
        }
        return JSONWriter.write(["rows": .array(rows)])
    }

    static func ms(_ start: UInt64, _ end: UInt64) -> Double { Double(end - start) / 1e6 }

    public func run() {
        let dataText = Self.dataText()
        var parse: [Double] = [], decode: [Double] = [], expand: [Double] = [], layout: [Double] = [], paint: [Double] = [], frame: [Double] = []
        var nodes = 0
        var frameBytes = 0
        for _ in 0..<rounds {
            let t0 = MonotonicClock.now()
            let view = try! JSONParser.parse(Self.viewText)
            let data = try! JSONParser.parse(dataText)
            let t1 = MonotonicClock.now()
            let spec = try! ViewDecoder.decode(view)
            let t2 = MonotonicClock.now()
            let root = try! ViewExpander.expand(spec, data: data)
            let t3 = MonotonicClock.now()
            FlexLayout.layout(root, width: 200, height: 60)
            let t4 = MonotonicClock.now()
            var canvas = TextCanvas(width: 200, height: 60)
            ViewPainter.paint(root, into: &canvas)
            let t5 = MonotonicClock.now()
            let text = FrameWriter.full(canvas, mode: .truecolor)
            let t6 = MonotonicClock.now()
            parse.append(Self.ms(t0, t1)); decode.append(Self.ms(t1, t2)); expand.append(Self.ms(t2, t3))
            layout.append(Self.ms(t3, t4)); paint.append(Self.ms(t4, t5)); frame.append(Self.ms(t5, t6))
            nodes = root.nodeCount
            frameBytes = text.utf8.count
        }
        let med = { (xs: [Double]) in xs.sorted()[xs.count / 2] }
        print("bench view: \(nodes) nodes, 200x60 canvas, median of \(rounds) rounds")
        print(BenchmarkTable.row("JSON parse (view + \(dataText.utf8.count / 1024) KiB data)", med(parse), unit: "ms"))
        print(BenchmarkTable.row("decode view JSON", med(decode), unit: "ms"))
        print(BenchmarkTable.row("expand data (templates, lists)", med(expand), unit: "ms"))
        print(BenchmarkTable.row("layout (flexbox, all nodes)", med(layout), unit: "ms"))
        print(BenchmarkTable.row("paint (cell canvas)", med(paint), unit: "ms"))
        print(BenchmarkTable.row("ANSI frame (\(frameBytes) bytes)", med(frame), unit: "ms"))
        let render = med(layout) + med(paint) + med(frame)
        print(BenchmarkTable.row("(1) layout + render", render, unit: "ms"))
        print("ratio (1) / 16 ms frame budget: \(BenchmarkTable.format(render / 16))x   (goal <= 1x)")

        // (2) a one-attribute update.
        let data = try! JSONParser.parse(dataText)
        let document = try! ViewDocument(json: try! JSONParser.parse(Self.viewText), data: data, width: 200, height: 60)
        var oursTotal: [Double] = [], oursApply: [Double] = [], oursRender: [Double] = [], baseline: [Double] = []
        var oursBytes = 0, baselineBytes = 0, changedNodes = 0
        for round in 0..<rounds {
            let label = JSONValue.string("v\(round)")
            let patch: JSONValue = [["op": "replace", "path": "/rows/2/cells/7/label", "value": label]]
            // Patch and expansion alone, to split the update into its phases.
            let a0 = MonotonicClock.now()
            let patched = try! JSONPatch.apply(patch, to: document.data)
            _ = try! ViewExpander.expand(document.spec, data: patched, previous: document.root)
            let a1 = MonotonicClock.now()
            let t0 = MonotonicClock.now()
            let change = try! document.update(patch: patch)
            let output = FrameWriter.changes(from: change.previous!, to: document.canvas, in: change.dirty, mode: .truecolor)
            let t1 = MonotonicClock.now()
            oursTotal.append(Self.ms(t0, t1)); oursApply.append(Self.ms(a0, a1)); oursRender.append(Self.ms(t0, t1) - Self.ms(a0, a1))
            oursBytes = output.utf8.count
            changedNodes = change.changedNodes
            // Baseline: the whole new tree laid out, the whole canvas painted, the whole frame written.
            let b0 = MonotonicClock.now()
            let fresh = try! ViewExpander.expand(document.spec, data: patched)
            FlexLayout.layout(fresh, width: 200, height: 60)
            var canvas = TextCanvas(width: 200, height: 60)
            ViewPainter.paint(fresh, into: &canvas)
            let full = FrameWriter.full(canvas, mode: .truecolor)
            let b1 = MonotonicClock.now()
            baseline.append(Self.ms(b0, b1))
            baselineBytes = full.utf8.count
            precondition(canvas == document.canvas, "the incremental frame differs from a fresh render")
        }
        print("one-attribute update (JSON Patch replace /rows/2/cells/7/label; \(changedNodes) node changed):")
        print(BenchmarkTable.row("  JSON Patch + expand changed items", med(oursApply), unit: "ms (part of ours)"))
        print(BenchmarkTable.row("  keyed diff+relayout+repaint+output", med(oursRender), unit: "ms (goal <= 0.5)"))
        print(BenchmarkTable.row("(2a) ours, whole update", med(oursTotal), unit: "ms, \(oursBytes) bytes written"))
        print(BenchmarkTable.row("(2b) baseline: full relayout+redraw", med(baseline), unit: "ms, \(baselineBytes) bytes written"))
        print("ratio (2a)/(2b): \(BenchmarkTable.format(med(oursTotal) / med(baseline)))x time, \(oursBytes) / \(baselineBytes) bytes")
    }
}
