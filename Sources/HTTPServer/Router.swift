import HTTPCore

/// Exact-path routes by method. The product registers every path it serves at start-up
/// (providers are known then), so no patterns are needed.
package struct Router: Sendable {
    /// What a request maps to.
    package enum Resolution: Sendable {
        case handler(HTTPHandler, routePath: String)
        case error(ServerError)
    }

    private var routes: [String: [HTTPMethod: HTTPHandler]] = [:]

    /// Serves each route; a later route for the same method and path replaces an earlier
    /// one. A GET route also answers HEAD (RFC 9110 §9.3.2), with the GET headers and no
    /// body.
    package init(_ routes: [Route<HTTPHandler>] = []) {
        for route in routes { self.routes[route.path, default: [:]][route.method] = route.handler }
    }

    /// The one entry point: the handler for `method` at `path`, or the error to answer.
    package func resolve(method: HTTPMethod, path: Substring) -> Resolution {
        let key = String(path)
        guard let byMethod = routes[key] else { return .error(.notFound) }
        if let handler = byMethod[method] { return .handler(handler, routePath: key) }
        if method == .head, let handler = byMethod[.get] {
            return .handler(handler, routePath: key)
        }
        var allow = byMethod.keys.map(\.rawValue)
        if byMethod[.get] != nil, byMethod[.head] == nil { allow.append("HEAD") }
        let methods = allow.sorted().map { HTTPMethod(rawValue: $0) }
        return .error(.methodNotAllowed(allow: methods))
    }
}
