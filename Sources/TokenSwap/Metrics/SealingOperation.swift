/// The `operation` label of `tokenswap_sealing_failures_total`.
enum SealingOperation: String, Sendable {
    case open
    case seal
}
