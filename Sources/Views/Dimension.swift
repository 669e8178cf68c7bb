/// A width, height or basis: a number of cells, a percentage of the parent's inner size, or auto.
public enum Dimension: Sendable, Hashable {
    case auto
    case cells(Int)
    case percent(Double)

    /// The size in cells against `parent` cells; nil for auto.
    func resolve(_ parent: Int) -> Int? {
        switch self {
        case .auto: nil
        case .cells(let n): n
        case .percent(let p): Int((Double(parent) * p / 100).rounded(.down))
        }
    }

    var isAuto: Bool { self == .auto }
}
