import HTTPCore

/// Exact-path routes by method. The product registers every path it serves at start-up
/// (providers are known then), so no patterns are needed.
public struct Router: Sendable {
    /// What a request maps to.
    public enum Resolution: Sendable {
        case handler(HTTPHandler)
        case error(ServerError)
    }

    private var routes: [String: [HTTPMethod: HTTPHandler]] = [:]

    public init() {}

    /// Serves `method` at `path`. A GET route also answers HEAD (RFC 9110 §9.3.2), with
    /// the GET headers and no body.
    public mutating func add(
        _ method: HTTPMethod, _ path: String, handler: @escaping HTTPHandler
    ) {
        routes[path, default: [:]][method] = handler
    }

    public mutating func get(_ path: String, handler: @escaping HTTPHandler) {
        add(.get, path, handler: handler)
    }

    public mutating func post(_ path: String, handler: @escaping HTTPHandler) {
        add(.post, path, handler: handler)
    }

    public func resolve(method: HTTPMethod, path: Substring) -> Resolution {
        guard let byMethod = routes[String(path)] else { return .error(.notFound) }
        if let handler = byMethod[method] { return .handler(handler) }
        if method == .head, let handler = byMethod[.get] { return .handler(handler) }
        var allow = byMethod.keys.map(\.rawValue)
        if byMethod[.get] != nil, byMethod[.head] == nil { allow.append("HEAD") }
        let methods = allow.sorted().map { HTTPMethod(rawValue: $0) }
        return .error(.methodNotAllowed(allow: methods))
    }

    /// Routes and runs `request`; every outcome is a response (errors included).
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch resolve(method: request.method, path: request.path) {
        case .error(let error):
            return error.response
        case .handler(let handler):
            do {
                return try await handler(request)
            } catch {
                return ServerError.handlerFailed.response
            }
        }
    }
}
