import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one family of calls that need a fresh token (AppAuth's `performAction(freshTokens:)`
/// in Swift's shape): `data(for:)` when the session may send the request, `authorize(_:)`
/// when the app sends it itself, `invalidateAccessToken(_:)` when the app's API refused it.
extension TokenSession {
    /// The request with `Authorization: Bearer <fresh access token>` (RFC 6750 §2.1), for
    /// an app that sends it itself. On a 401, call `invalidateAccessToken(_:)` with the
    /// refused token and `authorize(_:)` again (or use `data(for:)`, which does both).
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        Self.authorized(request, with: try await validAccessToken(refusing: nil))
    }

    /// Sends an API request with a fresh access token (Yoli's `authorizedRequest`). On a
    /// 401 (RFC 6750 §3.1 `invalid_token`) it gets a new access token (one refresh, shared
    /// with every other caller) and sends the request once more; a second 401 is returned
    /// to the caller, never retried again. Every other answer is returned as it is.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let token = try await validAccessToken(refusing: nil)
        let first = try await backend.transport.send(Self.authorized(request, with: token))
        guard first.1.statusCode == 401 else { return first }
        let renewed = try await validAccessToken(refusing: token)
        return try await backend.transport.send(Self.authorized(request, with: renewed))
    }

    /// `data(for:)` under the name the seeds use.
    @available(*, deprecated, renamed: "data(for:)")
    public func authorizedRequest(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await data(for: request)
    }

    /// For apps that send requests themselves: an API refused this access token (401,
    /// RFC 6750 §3.1). It is never handed out again; returns the new one: from one refresh
    /// shared with every other caller, or the one a refresh that finished meanwhile
    /// already brought (so many requests refused at once cost one refresh). A token that is
    /// no longer current is left as it is.
    @discardableResult
    public func invalidateAccessToken(_ accessToken: String) async throws -> String {
        try await validAccessToken(refusing: RedactedToken(accessToken)).revealed
    }

    /// `invalidateAccessToken(_:)` under its name before issue 19.
    @available(*, deprecated, renamed: "invalidateAccessToken(_:)")
    public func accessTokenRefused(_ accessToken: String) async throws -> String {
        try await invalidateAccessToken(accessToken)
    }

    private static func authorized(_ request: URLRequest, with token: RedactedToken) -> URLRequest {
        var request = request
        request.setValue("Bearer " + token.revealed, forHTTPHeaderField: "Authorization")
        return request
    }
}
