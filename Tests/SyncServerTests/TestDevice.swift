/// A device registered with a test server: its id and its bearer token.
struct TestDevice: Sendable {
    let id: String
    let token: String
}
