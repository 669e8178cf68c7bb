/// How one cell is drawn: colors and attributes.
public struct CellStyle: Sendable, Hashable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold = false, italic = false, underline = false, dim = false, inverse = false

    public init() {}
    public static let plain = CellStyle()

    /// `base` with the node's own text attributes and colors applied on top.
    init(inheriting base: CellStyle, _ style: ViewStyle) {
        self = base
        if let c = style.color { foreground = c }
        if let c = style.background { background = c }
        bold = bold || style.bold
        italic = italic || style.italic
        underline = underline || style.underline
        dim = dim || style.dim
        inverse = inverse || style.inverse
    }

    /// The SGR sequence that sets exactly this style from any other, under `mode`.
    func sgr(_ mode: ColorMode) -> String {
        var params = ["0"]
        if bold { params.append("1") }
        if dim { params.append("2") }
        if italic { params.append("3") }
        if underline { params.append("4") }
        if inverse { params.append("7") }
        if let f = foreground?.downsampled(to: mode) { params.append(f.sgr(background: false)) }
        if let b = background?.downsampled(to: mode) { params.append(b.sgr(background: true)) }
        return "\u{1B}[" + params.joined(separator: ";") + "m"
    }

    /// How a golden file lists it: `bold fg=red bg=#102030`.
    var label: String {
        var parts: [String] = []
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if italic { parts.append("italic") }
        if underline { parts.append("underline") }
        if inverse { parts.append("inverse") }
        if let f = foreground { parts.append("fg=" + f.label) }
        if let b = background { parts.append("bg=" + b.label) }
        return parts.joined(separator: " ")
    }
}
