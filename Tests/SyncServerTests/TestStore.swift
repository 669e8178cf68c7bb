import Testing

/// The stores every server test runs against: each test that starts a server takes one as its
/// argument, so the suite shows `sqlite` and `postgres` side by side.
enum TestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// A fresh database per test in the cluster of `HYBRID_TEST_POSTGRES_URL`; without it, the test fails.
    case postgres

    var testDescription: String { rawValue }
}
