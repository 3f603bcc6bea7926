import HTTPCore

/// The fields of a swap or refresh request, from a form or a JSON body, with the SDK
/// quirks of CONTRACT §2 applied: an empty value or the literal `(null)` (sent by the iOS
/// SDK and react-native bridges) counts as missing, and unknown fields are ignored.
///
/// A field the service reads that appears twice is refused as `invalid_request`:
/// RFC 6749 §3.1 and §3.2 say parameters "MUST NOT be included more than once", and
/// picking one of two different codes would be a guess. In a form, duplicates of fields
/// the service does not read are ignored with the rest of the unknown fields; a JSON body
/// with any duplicate member is refused, because the strict JSON parser refuses them all.
public struct TokenRequestFields: Sendable, Equatable {
    /// The fields the handlers read; the only ones checked for duplicates and types.
    public static let knownNames: Set<String> = [
        "code", "code_verifier", "redirect_uri", "refresh_token", "device_code", "scope",
    ]
    /// What `/token` reads besides (CONTRACT §8); only there, so the swap and refresh
    /// endpoints keep ignoring a `client_id` whatever its shape.
    public static let tokenEndpointNames: Set<String> = ["grant_type", "client_id"]
    /// What `/revoke` and `/introspect` read (RFC 7009 §2.1, RFC 7662 §2.1).
    /// `token_type_hint` is read only to refuse one that is not a string: the hint itself
    /// is not needed (what opens as a sealed refresh token is one).
    public static let lifecycleNames: Set<String> = ["token", "token_type_hint"]

    private let values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// The field's value, or nil when absent, empty or `(null)`.
    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty, value != "(null)" else { return nil }
        return value
    }
}
