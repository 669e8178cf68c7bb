import Foundation
import HostTesting
import JSON
import Testing
@testable import Views

/// Random view trees of every node type, with random styles.
enum RandomTree {
    static let words = ["a", "milk", "中文", "😀", "hello world", "e\u{301}clair", "x y z", "长长的句子在这里", ""]

    static func node(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        var style: JSONObject = [:]
        func maybe(_ key: String, _ value: @autoclosure () -> JSONValue) { if Int.random(in: 0..<4, using: &rng) == 0 { style[key] = value() } }
        maybe("border", .string(["single", "double", "rounded", "heavy", "none"].randomElement(using: &rng)!))
        maybe("padding", .number(Double(Int.random(in: 0...2, using: &rng))))
        maybe("margin", .array([.number(Double(Int.random(in: 0...1, using: &rng))), .number(Double(Int.random(in: 0...2, using: &rng)))]))
        maybe("width", Bool.random(using: &rng) ? .number(Double(Int.random(in: 0...30, using: &rng))) : .string("\(Int.random(in: 0...100, using: &rng))%"))
        maybe("height", .number(Double(Int.random(in: 0...8, using: &rng))))
        maybe("grow", .number(Double(Int.random(in: 0...3, using: &rng))))
        maybe("shrink", .number(Double(Int.random(in: 0...2, using: &rng))))
        maybe("minWidth", .number(Double(Int.random(in: 0...10, using: &rng))))
        maybe("maxWidth", .string("\(Int.random(in: 10...100, using: &rng))%"))
        maybe("align", .string(["start", "center", "end", "stretch"].randomElement(using: &rng)!))
        maybe("justify", .string(["start", "center", "end", "space-between", "space-around", "space-evenly"].randomElement(using: &rng)!))
        maybe("gap", .number(Double(Int.random(in: 0...2, using: &rng))))
        maybe("overflow", .string(Bool.random(using: &rng) ? "wrap" : "truncate"))
        let kinds = depth > 3 ? ["text", "button", "divider", "spacer", "input"] : ["stack", "box", "stack", "box", "text", "button", "divider", "spacer", "input", "list"]
        let kind = kinds.randomElement(using: &rng)!
        var node: JSONObject = ["type": .string(kind), "style": .object(style)]
        switch kind {
        case "stack", "box":
            style["direction"] = .string(Bool.random(using: &rng) ? "row" : "column")
            node["style"] = .object(style)
            node["children"] = .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in self.node(&rng, depth: depth + 1) })
        case "text", "button":
            node["text"] = .string(words.randomElement(using: &rng)!)
        case "input":
            node["placeholder"] = "type"
        case "list":
            node["items"] = "${items}"
            node["template"] = ["type": "text", "text": "- ${.}"]
        default:
            break
        }
        return .object(node)
    }
}

@Suite("layout properties over random trees")
struct LayoutPropertyTests {
    static let seeds: [UInt64] = Array(1...150)

    @Test("no node is painted outside its parent's box, borders stay closed, and row children's widths add up", arguments: seeds)
    func properties(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let tree = RandomTree.node(&rng, depth: 0)
        let width = Int.random(in: 10...60, using: &rng)
        let document = try ViewDocument(json: tree, data: ["items": ["one", "二", "three"]], width: width)
        check(document.root, clip: Rect(x: 0, y: 0, width: document.canvas.width, height: document.canvas.height), canvas: document.canvas, seed: seed)
    }

    func check(_ node: ViewNode, clip: Rect, canvas: TextCanvas, seed: UInt64) {
        let f = node.frame
        #expect(f.width >= 0 && f.height >= 0, "seed \(seed): negative size \(f)")
        // Borders closed: every border cell of a visible bordered box holds its border piece,
        // unless an ancestor's clip cut the box.
        if node.style.border != .none, f.width >= 2, f.height >= 2, clip.contains(f) {
            let p = node.style.border.pieces
            #expect(canvas[f.x, f.y].text == p.tl && canvas[f.maxX - 1, f.y].text == p.tr, "seed \(seed): top corners of \(f)")
            #expect(canvas[f.x, f.maxY - 1].text == p.bl && canvas[f.maxX - 1, f.maxY - 1].text == p.br, "seed \(seed): bottom corners of \(f)")
            for x in (f.x + 1)..<(f.maxX - 1) { #expect(canvas[x, f.y].text == p.h && canvas[x, f.maxY - 1].text == p.h, "seed \(seed): edge at \(x)") }
            for y in (f.y + 1)..<(f.maxY - 1) { #expect(canvas[f.x, y].text == p.v && canvas[f.maxX - 1, y].text == p.v, "seed \(seed): side at \(y)") }
        }
        if node.kind.isContainer, !node.children.isEmpty {
            let s = node.style
            let b = s.border.width
            let innerWidth = max(0, f.width - 2 * b - s.padding.horizontal)
            let innerHeight = max(0, f.height - 2 * b - s.padding.vertical)
            let row = (s.direction ?? .column) == .row
            // When the children fit and something grows, the main axis is used exactly.
            let main = node.children.reduce(0) { $0 + (row ? $1.frame.width + $1.style.margin.horizontal : $1.frame.height + $1.style.margin.vertical) }
                + s.gap * (node.children.count - 1)
            let available = row ? innerWidth : innerHeight
            let growing = node.children.contains { $0.style.grow > 0 && $0.style.maxWidth == .auto && $0.style.maxHeight == .auto }
            if row, growing, main <= available + 0, s.justify == .start {
                #expect(main == available, "seed \(seed): row children take \(main) of \(available)")
            }
        }
        let b = node.style.border.width
        let inside = Rect(x: f.x + b, y: f.y + b, width: max(0, f.width - 2 * b), height: max(0, f.height - 2 * b)).intersection(clip)
        for child in node.children { check(child, clip: inside, canvas: canvas, seed: seed) }
    }

    @Test("painting keeps every cell a node draws inside its parent's box", arguments: seeds)
    func paintingStaysInside(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 10_000)
        let tree = RandomTree.node(&rng, depth: 0)
        let width = Int.random(in: 10...60, using: &rng)
        let document = try ViewDocument(json: tree, data: ["items": ["one", "二"]], width: width)
        // Paint each child of a container alone into a blank canvas, clipped as the painter clips,
        // and check no cell outside the container's inside changed.
        func walk(_ node: ViewNode, clip: Rect) {
            let b = node.style.border.width
            let f = node.frame
            let inside = Rect(x: f.x + b, y: f.y + b, width: max(0, f.width - 2 * b), height: max(0, f.height - 2 * b)).intersection(clip)
            for child in node.children {
                var canvas = TextCanvas(width: document.canvas.width, height: document.canvas.height)
                ViewPainter.paint(child, into: &canvas, clip: inside, inherited: .plain, parentRow: false)
                for y in 0..<canvas.height {
                    for x in 0..<canvas.width where canvas[x, y] != .blank {
                        #expect(inside.contains(Rect(x: x, y: y, width: 1, height: 1)), "seed \(seed): cell (\(x),\(y)) outside \(inside)")
                    }
                }
                walk(child, clip: inside)
            }
        }
        walk(document.root, clip: Rect(x: 0, y: 0, width: document.canvas.width, height: document.canvas.height))
    }

    @Test("an incremental update draws the same frame as a fresh render", arguments: Array<UInt64>(1...60))
    func incrementalMatchesFresh(_ seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 20_000)
        let tree = RandomTree.node(&rng, depth: 0)
        let width = Int.random(in: 10...60, using: &rng)
        let before: JSONValue = ["items": ["one", "二", "three"]]
        let after: JSONValue = ["items": ["one", "二二二 more", "four", "😀"]]
        let document = try ViewDocument(json: tree, data: before, width: width)
        try document.update(data: after)
        let fresh = try ViewDocument(json: tree, data: after, width: width)
        #expect(document.canvas == fresh.canvas, "seed \(seed)")
    }
}

