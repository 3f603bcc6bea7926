/// Why a request could not be encoded. These are programming errors on our side (the
/// request is built by our code); the field's value is never carried, as it may be a
/// secret.
public enum HTTPEncodingError: Error, Sendable, Hashable {
    case invalidMethod
    case invalidTarget
    case invalidHost
    case invalidFieldName(String)
    case invalidFieldValue(name: String)
}
