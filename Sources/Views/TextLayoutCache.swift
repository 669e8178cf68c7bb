/// The wrapped lines of text nodes, kept per node for the width last asked: measuring and painting
/// ask for the same lines, and an update that leaves a node unchanged keeps them.
enum TextLayoutCache {
    static func lines(_ node: ViewNode, width: Int) -> [TextWrapper.Line] {
        if let cached = node.linesCache, cached.width == width { return cached.lines }
        let lines = node.style.overflow == .truncate ? TextWrapper.truncate(node.text, width: width) : TextWrapper.wrap(node.text, width: width)
        node.linesCache = (width, lines)
        return lines
    }
}
