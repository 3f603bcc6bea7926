import Foundation

/// A successful token answer (CONTRACT §2: swap, refresh, device token). Prints and dumps
/// without its tokens.
public struct TokenAnswer: Sendable, Hashable {
    public let accessToken: RedactedToken
    /// Absent when the provider gave none (the sandbox's `sandbox-no-refresh`).
    public let refreshToken: RedactedToken?
    /// Lifetime of the access token from the moment the answer arrived; nil when the
    /// answer did not say (then the token is used until an API answers 401).
    public let expiresInSeconds: Int?
    public let tokenType: String?
    public let scope: String?
    /// `refresh_token_expires_in` (CONTRACT §14): how long the grant has left from the
    /// moment the answer arrived, after which no refresh works and the user must sign in
    /// again; nil when the answer did not say (the deployment does not know).
    public let refreshTokenExpiresInSeconds: Int?

    public init(
        accessToken: RedactedToken, refreshToken: RedactedToken?, expiresInSeconds: Int?,
        tokenType: String? = "Bearer", scope: String? = nil,
        refreshTokenExpiresInSeconds: Int? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresInSeconds = expiresInSeconds
        self.tokenType = tokenType
        self.scope = scope
        self.refreshTokenExpiresInSeconds = refreshTokenExpiresInSeconds
    }

    /// Reads a token answer's JSON body, e.g. one an SDK received from `/v1/swap`.
    /// `expires_in` may be an integer or a numeric string (some providers send
    /// `"3600"`; tokenswap normalises it, an app's own swap service may not).
    public init(json: Data) throws {
        guard let object = JSONObject(json) else {
            throw TokenSwapClientError.unexpectedAnswer(status: 200)
        }
        try self.init(object, status: 200)
    }

    init(_ object: JSONObject, status: Int) throws {
        guard let access = object.string("access_token") else {
            throw TokenSwapClientError.unexpectedAnswer(status: status)
        }
        self.accessToken = RedactedToken(access)
        self.refreshToken = object.string("refresh_token").map(RedactedToken.init)
        self.expiresInSeconds = object.seconds("expires_in")
        self.tokenType = object.string("token_type")
        self.scope = object.string("scope")
        self.refreshTokenExpiresInSeconds = object.seconds("refresh_token_expires_in")
    }
}

extension TokenAnswer: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "TokenAnswer(access_token: <redacted>, refresh_token: "
            + (refreshToken == nil ? "none" : "<redacted>")
            + ", expires_in: \(expiresInSeconds.map(String.init) ?? "unknown")"
            + (refreshTokenExpiresInSeconds.map { ", refresh_token_expires_in: \($0)" } ?? "")
            + ")"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessToken": accessToken, "refreshToken": refreshToken as Any,
                "expiresInSeconds": expiresInSeconds as Any, "tokenType": tokenType as Any,
                "scope": scope as Any,
                "refreshTokenExpiresInSeconds": refreshTokenExpiresInSeconds as Any,
            ], displayStyle: .struct)
    }
}
