import Foundation

/// A started device authorization (RFC 8628 §3.2): what to show the user, and the sealed
/// device code to poll with. Prints and dumps without its device code or user code (the
/// user code is for the user's screen, not for logs). Named apart from the server's
/// `DeviceAuthorization`, which is the provider's side of the same grant.
public struct DeviceSignIn: Sendable, Hashable {
    public let deviceCode: RedactedToken
    /// Show this to the user: they type it at `verificationURI`.
    public let userCode: RedactedToken
    public let verificationURI: URL
    /// The verification URI with the user code filled in (for a QR code or a link).
    public let verificationURIComplete: URL?
    public let expiresInSeconds: Int
    /// Seconds between polls; 5 when the answer gives none (RFC 8628 §3.2).
    public let intervalSeconds: Int

    public init(
        deviceCode: RedactedToken, userCode: RedactedToken, verificationURI: URL,
        verificationURIComplete: URL?, expiresInSeconds: Int, intervalSeconds: Int
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresInSeconds = expiresInSeconds
        self.intervalSeconds = intervalSeconds
    }

    init(_ object: JSONObject, status: Int) throws {
        guard let deviceCode = object.string("device_code"),
            let userCode = object.string("user_code"),
            let uri = object.string("verification_uri").flatMap(URL.init(string:)),
            let expiresIn = object.seconds("expires_in"), expiresIn > 0
        else { throw TokenSwapClientError.unexpectedAnswer(status: status) }
        self.init(
            deviceCode: RedactedToken(deviceCode), userCode: RedactedToken(userCode),
            verificationURI: uri,
            verificationURIComplete: object.string("verification_uri_complete").flatMap(
                URL.init(string:)),
            expiresInSeconds: expiresIn,
            intervalSeconds: max(1, object.seconds("interval") ?? 5))
    }
}

extension DeviceSignIn: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "DeviceSignIn(verification_uri: \(verificationURI.absoluteString), "
            + "expires_in: \(expiresInSeconds), interval: \(intervalSeconds))"
    }

    /// The complete URI embeds the user code, so it is left out too.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "deviceCode": deviceCode, "userCode": userCode,
                "verificationURI": verificationURI.absoluteString,
                "expiresInSeconds": expiresInSeconds, "intervalSeconds": intervalSeconds,
            ], displayStyle: .struct)
    }
}

/// The name before issue 19, kept so existing apps compile.
@available(*, deprecated, renamed: "DeviceSignIn")
public typealias DeviceAuthorization = DeviceSignIn
