import HTTPCore
import Sealing

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
    /// Everything `/token` reads: its own fields and those of the grant it picks, decoded
    /// once.
    public static let tokenRequestNames = knownNames.union(tokenEndpointNames)
    /// What `/revoke` and `/introspect` read (RFC 7009 §2.1, RFC 7662 §2.1).
    /// `token_type_hint` is read only to refuse one that is not a string: the hint itself
    /// is not needed (what opens as a sealed refresh token is one).
    public static let lifecycleNames: Set<String> = ["token", "token_type_hint"]

    /// The fields read, each name once. A request carries a handful, so a scan finds one
    /// for less than hashing its name would cost, and no dictionary is made per request.
    private let fields: [Field]

    private struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    public init(_ values: [String: String]) {
        fields = values.map { Field(name: $0.key, value: $0.value) }
    }

    private init(fields: [Field]) {
        self.fields = fields
    }

    /// The field's value, or nil when absent, empty or `(null)`.
    public subscript(name: String) -> String? {
        guard let value = fields.first(where: { $0.name == name })?.value, !value.isEmpty,
            value != "(null)"
        else { return nil }
        return value
    }

    /// The same fields with the same values, in any order (each name is there once).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.count == rhs.fields.count && lhs.fields.allSatisfy { rhs.fields.contains($0) }
    }
}

extension TokenRequestFields {
    /// Decodes the body of a token request by its `Content-Type`: form (the SDK
    /// contract) or a JSON object with string fields. Media type names compare
    /// case-insensitively and parameters (`; charset=UTF-8`) are allowed (RFC 9110 §8.3.1).
    /// No `Content-Type` with an empty body is an empty form, so a bare `POST` gets the
    /// more useful "code is missing" rather than 415.
    ///
    /// `names`: the fields to read (the others are ignored as unknown).
    public static func decode(_ request: HTTPRequest, reading names: Set<String> = knownNames)
        throws(GrantError) -> TokenRequestFields
    {
        let mediaType = request.headers["Content-Type"].map(Self.mediaType)
        switch mediaType {
        case "application/x-www-form-urlencoded":
            return try decodeForm(request.body, reading: names)
        case "application/json":
            return try decodeJSON(request.body, reading: names)
        case nil where request.body.isEmpty:
            return TokenRequestFields([:])
        default:
            throw .unsupportedMediaType
        }
    }

    /// `type/subtype` without parameters, lower-cased.
    package static func mediaType(_ contentType: String) -> String {
        // Fast path for the usual header (`application/x-www-form-urlencoded`): already
        // lower-case, no parameters, no surrounding whitespace, so it is its own essence.
        // Over the string's own storage (every native string): a walk of its `UTF8View`
        // costs several times more per byte.
        let isEssence =
            contentType.utf8.withContiguousStorageIfAvailable { utf8 in
                guard let first = utf8.first, let last = utf8.last,
                    first != 0x20, first != 0x09, last != 0x20, last != 0x09
                else { return false }
                return utf8.allSatisfy {
                    $0 < 0x80 && $0 != UInt8(ascii: ";") && !(0x41...0x5A).contains($0)
                }
            } ?? false
        if isEssence { return contentType }
        let essence =
            contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            ?? ""
        return String(essence).trimmingWhitespace().lowercased()
    }

    static func decodeForm(_ body: [UInt8], reading names: Set<String> = knownNames)
        throws(GrantError) -> TokenRequestFields
    {
        let pairs: [(name: String, value: String)]
        do {
            pairs = try FormURLEncoding.decode(body)
        } catch {
            throw .invalidRequest("malformed form body")
        }
        var fields: [Field] = []
        for (name, value) in pairs where names.contains(name) {
            guard !fields.contains(where: { $0.name == name }) else {
                throw .invalidRequest("\(name) appears more than once")
            }
            fields.append(Field(name: name, value: value))
        }
        return TokenRequestFields(fields: fields)
    }

    static func decodeJSON(_ body: [UInt8], reading names: Set<String> = knownNames)
        throws(GrantError) -> TokenRequestFields
    {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(body)
        } catch .duplicateMember {
            throw .invalidRequest("a field appears more than once")
        } catch {
            throw .invalidRequest("malformed JSON body")
        }
        guard case .object(let members) = parsed else {
            throw .invalidRequest("JSON body must be an object")
        }
        // The parser refused any duplicate member, so each name comes once.
        var fields: [Field] = []
        for member in members where names.contains(member.name) {
            switch member.value {
            case .string(let text): fields.append(Field(name: member.name, value: text))
            case .null: continue  // a JSON null is as missing as the `(null)` string
            default: throw .invalidRequest("\(member.name) must be a string")
            }
        }
        return TokenRequestFields(fields: fields)
    }
}
