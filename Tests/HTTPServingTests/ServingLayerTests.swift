import HTTPServing
import Hummingbird
import HummingbirdTesting
import JSON
import Testing

/// The serving layer's pieces on their own, on a router of a made-up server (no sync): each test
/// drives the real router through HummingbirdTesting.
@Suite("The serving layer")
struct ServingLayerTests {
    /// A router in the order a server builds it: metrics, errors, then routes.
    static func router(metrics: RecordedAnswers = RecordedAnswers(), _ routes: (Router<TestContext>) -> Void) -> Router<TestContext> {
        let router = Router(context: TestContext.self)
        router.add(middleware: RequestMetricsMiddleware(metrics))
        router.add(middleware: ErrorResponseMiddleware(translate: translate))
        routes(router)
        return router
    }

    static func body(_ response: TestResponse) -> JSONValue? {
        try? JSONParser.parse(Array(response.body.readableBytesView))
    }

    @Test("a route whose handler throws a JSONResponseError answers with its status, headers and JSON body")
    func thrownErrorRendersItself() async throws {
        let router = Self.router { router in
            router.get("/items/:id") { _, context -> Response in
                throw Refusal(status: .tooManyRequests, message: "item \(context.parameters.get("id") ?? ""): slow down", headers: [.retryAfter: "7"])
            }
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/items/42", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "7")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(String(buffer: response.body) == #"{"error":"item 42: slow down"}"#)
            }
        }
    }

    @Test("any other error, and Hummingbird's own 404, are translated by the server into its error shape")
    func otherErrorsAreTranslated() async throws {
        let router = Self.router { router in
            router.get("/disk") { _, _ -> Response in throw DiskGone() }
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/disk", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(Self.body(response) == ["error": "the server failed: disk gone"])
            }
            try await client.execute(uri: "/nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(Self.body(response) == ["error": "GET /nothing: Not Found"])
            }
        }
    }

    @Test("the authentication middleware refuses a bad token with the authenticator's status, before the handler runs")
    func badTokenIsRefused() async throws {
        let handled = RecordedAnswers()
        let router = Self.router { router in
            router.group("/me").add(middleware: AuthenticationMiddleware(TestAuthenticator())).get { _, _ -> Response in
                handled.answered(route: "handler", status: 200, took: .zero)
                return Response(status: .ok)
            }
        }
        try await Application(router: router).test(.router) { client in
            for header: HTTPFields in [[:], [.authorization: "Bearer bad"]] {
                try await client.execute(uri: "/me", method: .get, headers: header) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                    #expect(Self.body(response) == ["error": "Authorization: unknown token"])
                }
            }
        }
        #expect(handled.all.isEmpty)
    }

    @Test("the authentication middleware puts the identity on the context for a good token")
    func goodTokenPutsIdentityOnContext() async throws {
        let router = Self.router { router in
            router.get("/open") { _, context in context.identity == nil ? "nobody" : "somebody" }
            router.group("/me").add(middleware: AuthenticationMiddleware(TestAuthenticator())).get { _, context in
                context.identity?.name ?? "nobody"
            }
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/me", method: .get, headers: [.authorization: "Bearer good"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "alice")
            }
            // A route without the middleware has no identity.
            try await client.execute(uri: "/open", method: .get) { response in
                #expect(String(buffer: response.body) == "nobody")
            }
        }
    }

    @Test("the metrics middleware labels a request by its route's path, not the URL with its ids, with the status sent")
    func metricsLabelByRoutePath() async throws {
        let metrics = RecordedAnswers()
        let router = Self.router(metrics: metrics) { router in
            router.get("/items/:id") { _, _ in "item" }
            router.get("/items/:id/refused") { _, _ -> Response in throw Refusal(status: .forbidden, message: "no") }
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/items/42", method: .get) { _ in }
            try await client.execute(uri: "/items/43", method: .get) { _ in }
            try await client.execute(uri: "/items/44/refused", method: .get) { _ in }
            try await client.execute(uri: "/nothing/45", method: .get) { _ in }
        }
        let answers = metrics.all
        #expect(answers.map(\.route) == ["/items/{id}", "/items/{id}", "/items/{id}/refused", "NotFound"])
        // The status of the error body the error middleware rendered, not a 500.
        #expect(answers.map(\.status) == [200, 200, 403, 404])
    }

    @Test("the metrics middleware leaves out the time a request waited on purpose")
    func metricsLeaveOutWaits() async throws {
        let metrics = RecordedAnswers()
        let router = Self.router(metrics: metrics) { router in
            router.get("/held") { _, context in
                // Said to have waited an hour: no request here takes that long, so only the
                // subtraction can make the time recorded negative.
                context.waits.add(.seconds(3600))
                return "held"
            }
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/held", method: .get) { _ in }
        }
        let took = try #require(metrics.all.first).took
        #expect(took < .seconds(-3500))
    }

    @Test("the OpenAPI route serves the document as JSON")
    func openAPIRouteServesDocument() async throws {
        let document = #"{"openapi": "3.1.0"}"#
        let router = Self.router { router in
            router.addRoutes(OpenAPIRoute(document: document).routes(at: "/v1/openapi.json", context: TestContext.self))
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(String(buffer: response.body) == document)
            }
        }
    }
}
