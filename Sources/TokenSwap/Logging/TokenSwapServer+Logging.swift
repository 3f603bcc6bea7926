import Logging

extension TokenSwapServer {
    /// The service's logger, in the configured format and level. Built with an explicit
    /// factory rather than the process-wide `LoggingSystem`, so tests can assemble
    /// several services in one process, each writing where it is told.
    static func logger(
        for configuration: ServiceConfiguration, write: @escaping @Sendable (String) -> Void
    ) -> Logger {
        Logger(label: "tokenswap") { label in
            ServiceLogHandler(
                label: label, level: configuration.logLevel, format: configuration.logFormat,
                write: write)
        }
    }

    /// Makes every other `Logger` in the process (libraries included) write through the
    /// same handler; once per process, by the binary.
    package static func bootstrapLogging(for configuration: ServiceConfiguration) {
        LoggingSystem.bootstrap { label in
            ServiceLogHandler(
                label: label, level: configuration.logLevel, format: configuration.logFormat)
        }
    }
}

extension LogLevelSetting {
    /// swift-log's level for the setting.
    package var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}
