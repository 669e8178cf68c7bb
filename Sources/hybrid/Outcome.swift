import SystemIO

/// What a server's or a request's task ended with, handed to the blocked main thread.
final class Outcome: Sendable {
    private let state = Locked<CLIFailure?>(nil)

    var failure: CLIFailure? {
        get { state.value }
        set { state.value = newValue }
    }
}
