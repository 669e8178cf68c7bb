/// How many colors the output may use: `--colors none|16|256|truecolor`.
public enum ColorMode: String, Sendable, CaseIterable {
    case none
    case ansi16 = "16"
    case palette256 = "256"
    case truecolor

    /// What the terminal supports, from the environment: `NO_COLOR` (any value) turns color off,
    /// `COLORTERM=truecolor|24bit` gives truecolor, a `TERM` ending in `256color` gives 256,
    /// `TERM=dumb` none, anything else 16.
    public static func detect(environment: (String) -> String?) -> ColorMode {
        if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return .none }
        let colorterm = environment("COLORTERM") ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        let term = environment("TERM") ?? ""
        if term == "dumb" { return .none }
        if term.hasSuffix("256color") { return .palette256 }
        return .ansi16
    }
}
