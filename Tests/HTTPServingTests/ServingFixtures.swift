import HTTPServing
import Hummingbird
import JSON
import Synchronization

/// The caller the test authenticator finds.
struct Caller: Sendable, Equatable {
    let name: String
}

typealias TestContext = ServerRequestContext<Caller>

/// A refusal in a small error shape of its own, as a server other than sync would have.
struct Refusal: JSONResponseError {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    var body: JSONValue { ["error": .string(message)] }
}

/// `Bearer good` is alice; anything else is refused with 401.
struct TestAuthenticator: RequestAuthenticator {
    typealias Context = TestContext

    func authenticate(_ request: Request, context: TestContext) async throws -> Caller {
        guard request.headers[.authorization] == "Bearer good" else {
            throw Refusal(status: .unauthorized, message: "Authorization: unknown token", headers: [.wwwAuthenticate: "Bearer"])
        }
        return Caller(name: "alice")
    }
}

/// Every answer the metrics middleware recorded.
final class RecordedAnswers: RequestMetrics {
    struct Answer: Sendable {
        let route: String?
        let status: Int
        let took: Duration
    }

    private let answers = Mutex<[Answer]>([])

    func answered(route: String?, status: Int, took: Duration) {
        answers.withLock { $0.append(Answer(route: route, status: status, took: took)) }
    }

    var all: [Answer] { answers.withLock { $0 } }
}

/// What a server on the serving layer translates: anything that is not already an answer is a 500
/// that names it, Hummingbird's own errors keep their status.
@Sendable func translate(_ error: any Error, _ request: Request) -> any JSONResponseError {
    if let error = error as? any HTTPResponseError {
        return Refusal(status: error.status, message: "\(request.method.rawValue) \(request.uri.path): \(error.status.reasonPhrase)")
    }
    return Refusal(status: .internalServerError, message: "the server failed: \(error)")
}

struct DiskGone: Error, CustomStringConvertible {
    var description: String { "disk gone" }
}
