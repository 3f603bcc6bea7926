/// `TOKENSWAP_LOG_LEVEL`. The wiring maps it to swift-log's `Logger.Level`.
public enum LogLevelSetting: String, Sendable, Hashable, CaseIterable {
    case debug, info, warning, error
}
