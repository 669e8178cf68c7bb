/// An SGR mouse report: a button press or release, or a wheel step.
struct MouseReport: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        case press, release, wheelUp, wheelDown, other
    }

    var action: Action
    var x: Int
    var y: Int
}
