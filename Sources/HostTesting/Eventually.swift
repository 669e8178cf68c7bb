/// Waits until `condition` holds, checking it every `interval`, for at most `limit`; returns
/// whether it held (checked once more at the deadline). For what a test waits on that happens on
/// another task or process (a held pull arriving, a sweeper rejecting a packet): the limit is
/// generous, since a loaded machine is slow, and a condition that holds returns at once.
///
/// ```swift
/// let held = try await eventually(within: .seconds(10)) { server.server.heldPulls == 2 }
/// #expect(held)
/// ```
public func eventually(within limit: Duration = .seconds(120), every interval: Duration = .milliseconds(10),
                       _ condition: () async throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while clock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return try await condition()
}
