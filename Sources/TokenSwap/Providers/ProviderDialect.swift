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
