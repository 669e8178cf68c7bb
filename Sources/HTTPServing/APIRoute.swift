import Hummingbird

/// A server's API as an enumeration, one case per route: its method and its path in the router's
/// syntax (`:name` a parameter), its raw value the route's name in the metrics' `endpoint` label.
/// What a server needs beyond registering them comes with it: which routes a request's path is
/// (for `405` with `Allow`), and the route a router match names (for the metrics).
///
/// ```swift
/// enum Route: String, APIRoute { case health; var method: HTTPRequest.Method { .get }; var path: String { "/v1/health" } }
/// Route.methods(for: "/v1/health")        // ["GET"]
/// Route.byRouterPath["/v1/health"]        // .health
/// ```
public protocol APIRoute: RawRepresentable<String>, CaseIterable, Hashable, Sendable where AllCases: Sendable {
    var method: HTTPRequest.Method { get }
    /// In the router's syntax: `:name` is a parameter.
    var path: String { get }
}

extension APIRoute {
    /// Whether `path` (a request's) is this route's, whatever the method.
    public func matches(_ path: Substring) -> Bool {
        let want = self.path.split(separator: "/")
        let have = path.split(separator: "/")
        return want.count == have.count && zip(want, have).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
    }

    /// The methods the routes whose path `path` is answer; empty for a path the API has not.
    public static func methods(for path: String) -> [String] {
        allCases.filter { $0.matches(Substring(path)) }.map(\.method.rawValue)
    }

    /// The route whose path the router reports for a match (`/v1/packets/{packetId}`), for the
    /// metrics' labels; nil for a path no route has.
    public static func route(routerPath: String?) -> Self? {
        guard let routerPath else { return nil }
        let have = routerPath.split(separator: "/")
        return allCases.first { route in
            let want = route.path.split(separator: "/")
            return want.count == have.count && zip(want, have).allSatisfy { want, have in
                want.hasPrefix(":") ? have == "{\(want.dropFirst())}" : want == have
            }
        }
    }
}
