/// `TOKENSWAP_LOG_FORMAT`: human-readable lines or one JSON object per line.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    case text, json
}
