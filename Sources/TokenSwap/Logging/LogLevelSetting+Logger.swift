import Logging

extension LogLevelSetting {
    /// swift-log's level for the setting.
    public var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}
