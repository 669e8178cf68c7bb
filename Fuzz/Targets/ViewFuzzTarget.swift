import JSON
import Views

/// A view JSON decoded, expanded with data, laid out and painted, then updated: `{"tree": VIEW,
/// "data": DATA, "width": N, "height": N, "next": DATA, "patch": [RFC 6902 ops]}` (or the view
/// alone, at 40 cells). Whatever renders, the canvas has its size, an update draws exactly what a
/// fresh render of the new data draws, and the terminal output is built for each color mode.
enum ViewFuzzTarget {
    static let target = FuzzTarget(name: "view", summary: "ViewDecoder + ViewExpander + FlexLayout + ViewPainter; update == fresh render") { input throws(FuzzFinding) in
        try run(input)
    }

    static func run(_ input: [UInt8]) throws(FuzzFinding) {
        guard let json = try? JSONParser.parse(input) else { return }
        let tree = json["tree"] ?? json
        let data = json["data"] ?? .object([:])
        let width = min(max(json["width"]?.intValue ?? 40, 1), 200)
        let height = json["height"]?.intValue.map { min(max($0, 1), 100) }
        guard let spec = try? ViewDecoder.decode(tree), let document = try? ViewDocument(spec: spec, data: data, width: width, height: height) else { return }
        try checkCanvas(document.canvas, width: width, height: height)
        for mode in ColorMode.allCases {
            _ = document.canvas.ansiText(mode)
        }
        _ = FrameWriter.full(document.canvas, mode: .truecolor)
        if let next = json["next"] {
            try update(document, spec: spec, width: width, height: height) { document throws(FuzzFinding) in
                do { return try document.update(data: next) } catch { return nil }
            }
        }
        if let patch = json["patch"] {
            try update(document, spec: spec, width: width, height: height) { document throws(FuzzFinding) in
                do { return try document.update(patch: patch) } catch { return nil }
            }
        }
        for _ in 0..<3 { _ = document.moveFocus() }
        _ = document.moveFocus(backward: true)
        if let focused = document.focusedNode(), let id = focused.id, document.node(id: id) == nil {
            throw FuzzFinding("view", "the focused node's id \"\(id)\" finds no node")
        }
    }

    /// Runs one update and compares its canvas with a fresh render of the document's new data.
    static func update(_ document: ViewDocument, spec: ViewSpec, width: Int, height: Int?,
                       _ body: (ViewDocument) throws(FuzzFinding) -> ViewDocument.Change?) throws(FuzzFinding) {
        let before = document.canvas
        guard let change = try body(document) else { return }
        try checkCanvas(document.canvas, width: width, height: height)
        guard let fresh = try? ViewDocument(spec: spec, data: document.data, width: width, height: height) else {
            throw FuzzFinding("view", "an update succeeded where a fresh render of the same data fails")
        }
        guard fresh.canvas == document.canvas else {
            throw FuzzFinding("view", "after an update the canvas differs from a fresh render:\n\(document.canvas.plainText)\nfresh:\n\(fresh.canvas.plainText)")
        }
        _ = FrameWriter.changes(from: change.previous ?? before, to: document.canvas, in: change.dirty, mode: .palette256)
    }

    static func checkCanvas(_ canvas: TextCanvas, width: Int, height: Int?) throws(FuzzFinding) {
        guard canvas.width == width, height.map({ $0 == canvas.height }) ?? true, canvas.cells.count == canvas.width * canvas.height else {
            throw FuzzFinding("view", "a canvas of \(canvas.width)×\(canvas.height) with \(canvas.cells.count) cells, for width \(width) and height \(height.map(String.init) ?? "auto")")
        }
    }
}
