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
/// bytes each writes. (3) a keystroke in an input above that tree, to the bytes written (edit,
/// repaint of the field, changed cells and the cursor's move), p50 and p99 against a 1 ms goal,
/// and against the baseline of rendering the whole view anew with the new value. (4) a resize of
/// the terminal: the whole tree laid out again at the new width and the frame written, against
/// 16 ms and against rendering the view anew at that size.
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
            let (canvas, full) = Self.renderAnew(document.spec, patched, width: 200, height: 60)
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
        keystrokes(dataText)
        resizes(dataText)
    }

    /// The 10k-node tree under a search input 40 cells wide, in a 200×61 canvas.
    static let inputViewText = ##"{"type": "stack", "children": [{"type": "input", "id": "q", "value": "${query}", "placeholder": "search", "style": {"width": 40}}, "##
        + viewText + "]}"

    /// The baseline of (2), (3) and (4), as a renderer without incremental layout works: the whole
    /// tree expanded, laid out and painted anew, and the whole frame written.
    static func renderAnew(_ spec: ViewSpec, _ data: JSONValue, width: Int, height: Int) -> (canvas: TextCanvas, frame: String) {
        let fresh = try! ViewExpander.expand(spec, data: data)
        FlexLayout.layout(fresh, width: width, height: height)
        var canvas = TextCanvas(width: width, height: height)
        ViewPainter.paint(fresh, into: &canvas)
        return (canvas, FrameWriter.full(canvas, mode: .truecolor))
    }

    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        let sorted = xs.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
    }

    /// (3) Keystrokes typed into the input: each the edit, the repaint of the field, the changed
    /// cells and the cursor's move, as the view session writes them.
    func keystrokes(_ dataText: String) {
        let data = try! JSONParser.parse(dataText)
        let document = try! ViewDocument(json: try! JSONParser.parse(Self.inputViewText), data: data, width: 200, height: 61)
        document.moveFocus()
        let count = max(1000, rounds * 20)
        var ours: [Double] = []
        var bytes = 0
        for i in 0..<count {
            let t0 = MonotonicClock.now()
            let before = document.canvas
            // Type up to 60 characters (past the field's width, so it scrolls), then delete them.
            let edit: InputEditor.Edit = (i / 60) % 2 == 0 ? .insert(i % 7 == 0 ? " " : "x") : .backspace
            let rects = document.edit(edit)!.rects
            let output = FrameWriter.changes(from: before, to: document.canvas, in: rects, mode: .truecolor) + document.cursorSequence
            let t1 = MonotonicClock.now()
            ours.append(Self.ms(t0, t1))
            bytes += output.utf8.count
        }
        // Baseline: the view rendered anew with the new value (expand, layout, paint, whole frame).
        var baseline: [Double] = []
        var baselineBytes = 0
        let spec = try! ViewDecoder.decode(try! JSONParser.parse(Self.inputViewText))
        guard case .object(var object) = data else { return }
        for i in 0..<max(5, rounds / 5) {
            object["query"] = .string(String(repeating: "x", count: i % 40))
            let b0 = MonotonicClock.now()
            let full = Self.renderAnew(spec, .object(object), width: 200, height: 61).frame
            let b1 = MonotonicClock.now()
            baseline.append(Self.ms(b0, b1))
            baselineBytes = full.utf8.count
        }
        let med = { (xs: [Double]) in xs.sorted()[xs.count / 2] }
        print("keystroke in an input above the \(document.root.nodeCount)-node tree (\(count) keystrokes: typing, then backspace):")
        print(BenchmarkTable.row("(3a) ours p50, keystroke to bytes", Self.percentile(ours, 0.5), unit: "ms, \(bytes / count) bytes each on average"))
        print(BenchmarkTable.row("(3a) ours p99", Self.percentile(ours, 0.99), unit: "ms (goal <= 1)"))
        print(BenchmarkTable.row("(3b) baseline: render anew, median", med(baseline), unit: "ms, \(baselineBytes) bytes written"))
        print("ratio (3a) p99 / 1 ms goal: \(BenchmarkTable.format(Self.percentile(ours, 0.99)))x   ratio (3b) / (3a) p50: \(BenchmarkTable.format(med(baseline) / Self.percentile(ours, 0.5)))x")
    }

    /// (4) The terminal resized between 200 and 160 columns: the whole tree laid out again and the
    /// whole frame written.
    func resizes(_ dataText: String) {
        let data = try! JSONParser.parse(dataText)
        let document = try! ViewDocument(json: try! JSONParser.parse(Self.inputViewText), data: data, width: 200, height: 61)
        document.moveFocus()
        let spec = try! ViewDecoder.decode(try! JSONParser.parse(Self.inputViewText))
        var ours: [Double] = [], baseline: [Double] = []
        var bytes = 0
        for round in 0..<rounds {
            let width = round % 2 == 0 ? 160 : 200
            let t0 = MonotonicClock.now()
            document.resize(width: width, height: 61)
            let output = FrameWriter.redraw(document.canvas, mode: .truecolor, columns: width, rows: 61) + document.cursorSequence
            let t1 = MonotonicClock.now()
            ours.append(Self.ms(t0, t1))
            bytes = output.utf8.count
            // Baseline: the view rendered anew at the new size.
            let b0 = MonotonicClock.now()
            _ = Self.renderAnew(spec, data, width: width, height: 61)
            let b1 = MonotonicClock.now()
            baseline.append(Self.ms(b0, b1))
        }
        let med = { (xs: [Double]) in xs.sorted()[xs.count / 2] }
        print("resize between 200x61 and 160x61 (\(document.root.nodeCount) nodes, median of \(rounds)):")
        print(BenchmarkTable.row("(4a) ours: relayout + repaint + frame", med(ours), unit: "ms, \(bytes) bytes (goal <= 16)"))
        print(BenchmarkTable.row("(4b) baseline: render anew", med(baseline), unit: "ms"))
        print("ratio (4a) / 16 ms: \(BenchmarkTable.format(med(ours) / 16))x   ratio (4a)/(4b): \(BenchmarkTable.format(med(ours) / med(baseline)))x")
    }
}
