import HTTPCore

/// `TOKENSWAP_CORS_ORIGINS` for browser SDKs (the Flutter web client): which origins may
/// call the grant endpoints, and the headers that tell the browser so (Fetch standard,
/// "CORS protocol").
///
/// An allowed origin is echoed, never answered with `*`, and with `Vary: Origin` so a
/// cache cannot hand one origin's answer to another. Credentials are never allowed (the
/// grant endpoints use no cookies), so `Access-Control-Allow-Credentials` is never sent.
/// A `*` entry in the list allows every origin, still echoed. Matching is exact: scheme,
/// host and port as the browser sends them.
public struct CORSPolicy: Sendable {
    let origins: Set<String>
    let allowsAnyOrigin: Bool

    /// What a preflight may ask for: the grant endpoints take POST with these headers
    /// (`DPoP`: a proof, CONTRACT §13).
    static let allowedMethods = "POST"
    static let allowedHeaders = "Content-Type, X-Request-Id, DPoP"
    /// Headers browser code may read on the actual response (a web app signing out reads
    /// whether the revocation reached the provider; a DPoP client reads the next nonce).
    static let exposedHeaders = "X-Request-Id, Retry-After, Tokenswap-Revocation, DPoP-Nonce"
    /// How long a browser may cache a preflight (Chromium caps it at 2 hours).
    static let maxAgeSeconds = 600

    /// nil when no origin is configured: CORS is off, and OPTIONS stays a 405.
    public init?(origins: [String]) {
        guard !origins.isEmpty else { return nil }
        self.origins = Set(origins)
        self.allowsAnyOrigin = origins.contains("*")
    }

    public func decision(origin: String?) -> CORSDecision {
        guard let origin else { return .notCrossOrigin }
        // `*` is the configuration's wildcard, never an origin a browser sends.
        guard origin != "*" else { return .denied }
        if origins.contains(origin)
            || (allowsAnyOrigin && SettingSyntax.isCORSOrigin(origin))
        {
            return .allowed(origin: origin)
        }
        return .denied
    }

    /// The answer to `OPTIONS` on a token path. Allowed origin: 204 with the CORS
    /// headers. Denied origin: 403 `origin_not_allowed`, no CORS headers (so the browser
    /// refuses, and a person reading the network tab sees why). No `Origin` (not a
    /// preflight, e.g. curl): 204 with `Allow` (RFC 9110 §9.3.7).
    public func preflight(_ request: HTTPRequest) -> HTTPResponse {
        switch decision(origin: request.headers["Origin"]) {
        case .allowed(let origin):
            var headers = Self.originHeaders(origin)
            headers.add(name: "Access-Control-Allow-Methods", value: Self.allowedMethods)
            headers.add(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders)
            headers.add(name: "Access-Control-Max-Age", value: String(Self.maxAgeSeconds))
            return HTTPResponse(status: .noContent, headers: headers)
        case .notCrossOrigin:
            return HTTPResponse(
                status: .noContent, headers: HTTPHeaders([("Allow", "OPTIONS, POST")]))
        case .denied:
            return OAuthErrorResponse.make(
                .forbidden, code: "origin_not_allowed",
                description: "This origin is not allowed (TOKENSWAP_CORS_ORIGINS).",
                headers: HTTPHeaders([("Content-Type", "application/json")]))
        }
    }

    /// Adds the CORS headers to an actual (non-preflight) response for an allowed origin.
    public func decorate(_ response: inout HTTPResponse, for request: HTTPRequest) {
        guard case .allowed(let origin) = decision(origin: request.headers["Origin"]) else {
            return
        }
        for field in Self.originHeaders(origin) {
            response.headers.replaceOrAdd(name: field.name, value: field.value)
        }
        response.headers.replaceOrAdd(
            name: "Access-Control-Expose-Headers", value: Self.exposedHeaders)
    }

    private static func originHeaders(_ origin: String) -> HTTPHeaders {
        HTTPHeaders([("Access-Control-Allow-Origin", origin), ("Vary", "Origin")])
    }
}

/// What the CORS policy says about a request's `Origin`.
public enum CORSDecision: Sendable, Equatable {
    /// No `Origin` header: not a cross-origin browser request; nothing to add.
    case notCrossOrigin
    /// Allowed: answer with `Access-Control-Allow-Origin: <origin>` and `Vary: Origin`.
    case allowed(origin: String)
    /// Not in the allow-list: no CORS headers (the browser then refuses the response).
    case denied
}
