import HTTPClient
import Sealing

/// A named upstream OAuth 2.0 authorization server, validated and immutable, with every
/// per-provider setting resolved into it when the configuration is loaded: a request reads
/// its provider's fields and never looks a setting up by the provider's name.
///
/// A class, not a struct: every request's closures carry their provider, and a struct of
/// this many strings and arrays costs a retain and a release per field on every copy
/// (docs/perf-log: retain/release traffic was the largest user-space cost of a refresh).
/// Equal when every field is equal.
public final class Provider: Sendable, Hashable {
    /// `[a-z0-9-]{1,32}`; the path segment in `/v1/<name>/swap` and part of what a sealed
    /// token is bound to.
    package let name: String
    package let preset: ProviderPreset
    package let tokenURL: UpstreamURL
    package let clientID: String
    package let clientSecret: Secret
    package let authMethod: ClientAuthMethod
    /// Sent upstream on swap unless the client sent one from `allowedRedirectURIs`.
    package let redirectURI: String
    /// Extra redirect URIs a client may send, compared by exact string match.
    package let allowedRedirectURIs: [String]
    /// How the provider speaks the device grant (`TOKENSWAP_<NAME>_DIALECT`).
    package let dialect: ProviderDialect
    /// The device authorization grant, when the provider has a device endpoint; nil
    /// means `/v1/<name>/device/…` are not served for it.
    package let device: ProviderDeviceSettings?
    /// Formats of the swap service this one replaces, tried in order when a refresh
    /// token does not open natively (CONTRACT §9).
    package let legacyDecoders: [LegacyDecoder]
    /// Authorize, revocation and introspection endpoints (CONTRACT §8).
    package let lifecycle: ProviderLifecycle
    /// `TOKENSWAP_<NAME>_DPOP` (CONTRACT §13): what its requests' `DPoP` headers do.
    package let dpopMode: DPoPMode
    /// `TOKENSWAP_<NAME>_REUSE_DETECTION` and `_REFRESH_TOKEN_LIFETIME_SECONDS` (CONTRACT §14).
    package let familyPolicy: GrantFamilyPolicy
    /// The `Authorization` value for `client_secret_basic`, made once here rather than
    /// base64-encoded again on every token request. A `Secret`: base64 is no protection,
    /// and a `Provider` printed or dumped must not carry the client secret in it.
    let basicCredentials: Secret
    /// What this provider's sealed values are bound to, one per kind, made once: a seal or
    /// an open then builds no context and copies no string.
    private let refreshTokenContext: SealingContext
    private let deviceCodeContext: SealingContext
    private let keptAnswerContext: SealingContext

    package init(
        name: String, preset: ProviderPreset, tokenURL: UpstreamURL, clientID: String,
        clientSecret: Secret,
        authMethod: ClientAuthMethod, redirectURI: String, allowedRedirectURIs: [String] = [],
        dialect: ProviderDialect = .rfc8628, device: ProviderDeviceSettings? = nil,
        legacyDecoders: [LegacyDecoder] = [],
        lifecycle: ProviderLifecycle = .unsupported, dpopMode: DPoPMode = .default,
        familyPolicy: GrantFamilyPolicy = GrantFamilyPolicy()
    ) {
        self.name = name
        self.preset = preset
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authMethod = authMethod
        self.redirectURI = redirectURI
        self.allowedRedirectURIs = allowedRedirectURIs
        self.dialect = dialect
        self.device = device
        self.legacyDecoders = legacyDecoders
        self.lifecycle = lifecycle
        self.dpopMode = dpopMode
        self.familyPolicy = familyPolicy
        self.basicCredentials = Secret(
            Self.basicCredentials(clientID: clientID, clientSecret: clientSecret.revealed))
        refreshTokenContext = SealingContext(provider: name, clientID: clientID)
        deviceCodeContext = SealingContext(provider: name, clientID: clientID, kind: .deviceCode)
        keptAnswerContext = SealingContext(provider: name, clientID: clientID, kind: .keptAnswer)
    }

    /// What a sealed value of `kind` for this provider is bound to (`SealingContext`).
    func sealingContext(_ kind: SealedKind) -> SealingContext {
        switch kind {
        case .refreshToken: refreshTokenContext
        case .deviceCode: deviceCodeContext
        case .keptAnswer: keptAnswerContext
        }
    }

    public static func == (a: Provider, b: Provider) -> Bool {
        a === b
            || (a.name == b.name && a.preset == b.preset && a.tokenURL == b.tokenURL
                && a.clientID == b.clientID && a.clientSecret == b.clientSecret
                && a.authMethod == b.authMethod && a.redirectURI == b.redirectURI
                && a.allowedRedirectURIs == b.allowedRedirectURIs && a.dialect == b.dialect
                && a.device == b.device && a.legacyDecoders == b.legacyDecoders
                && a.lifecycle == b.lifecycle && a.dpopMode == b.dpopMode
                && a.familyPolicy == b.familyPolicy)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(tokenURL)
        hasher.combine(clientID)
    }

    /// Whether `name` is a valid provider name: `[a-z0-9-]{1,32}`.
    package static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count) else { return false }
        return bytes.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D
        }
    }
}

/// How the service authenticates to a provider's token endpoint (RFC 6749 §2.3.1; the
/// names are the OAuth dynamic registration values, RFC 7591 §2).
public enum ClientAuthMethod: String, Sendable, Hashable, CaseIterable {
    /// `Authorization: Basic base64(id:secret)`; Spotify's default.
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form body; LinkedIn's.
    case clientSecretPost = "client_secret_post"
    /// A public client (RFC 6749 §2.1): `client_id` in the form body, no secret
    /// (RFC 8628 §3.1, §3.4; L2P, GitHub's device flow).
    case none

    /// Whether this method sends a client secret, so one must be configured.
    package var needsSecret: Bool { self != .none }
}

/// How a provider speaks the device authorization grant (CONTRACT §7), chosen per
/// provider by `TOKENSWAP_<NAME>_DIALECT`. The app always talks RFC 8628 to tokenswap;
/// the dialect is the one place that knows the provider's request fields and answer
/// shapes (`ProviderDialect+Device.swift`), so the handlers carry no per-provider
/// branches.
public enum ProviderDialect: String, Sendable, Hashable, CaseIterable {
    /// RFC 8628 as written: `grant_type=urn:ietf:params:oauth:grant-type:device_code`,
    /// errors as an `error` member whatever the HTTP status (RFC 400, GitHub 200,
    /// Auth0 403/429).
    case rfc8628
    /// RWTH `oauth2waitress` (L2P): `grant_type=device&code=…`, `verification_url`,
    /// and errors as HTTP 200 with a `status` string.
    case l2p
}

extension Provider {
    /// The redirect URI to send upstream for a client that sent `requested` (CONTRACT §3):
    /// the configured one is always allowed, the allow-list adds others by exact string
    /// match, and anything else (or nothing) is replaced by the configured one. Silently,
    /// because a provider rejects a mismatched redirect URI anyway, and SDKs send
    /// whatever their app was built with.
    package func redirectURI(forRequested requested: String?) -> String {
        guard let requested else { return redirectURI }
        if requested == redirectURI || allowedRedirectURIs.contains(requested) {
            return requested
        }
        return redirectURI
    }
}
