import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The service's log lines: one line per event, `text` (`time level message key=value…`)
/// or `json` (one object per line, for log shippers), as `TOKENSWAP_LOG_FORMAT` says.
/// Values are escaped so nothing a client sends can start a second line. What goes into
/// metadata is the caller's responsibility: the service never logs tokens, codes,
/// secrets or keys.
package struct ServiceLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level
    let label: String
    let format: LogFormat
    let write: @Sendable (String) -> Void

    /// - Parameter write: where finished lines go (stdout in the service; a collector in
    ///   tests). Called once per event with the line, newline included.
    package init(
        label: String, level: LogLevelSetting, format: LogFormat,
        write: @escaping @Sendable (String) -> Void = ServiceLogHandler.standardOutput
    ) {
        self.label = label
        self.logLevel = level.loggerLevel
        self.format = format
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.sorted { $0.key < $1.key }.map { ($0.key, "\($0.value)") }
        let time = Date().ISO8601Format()
        write(
            Self.line(
                time: time, level: event.level, message: "\(event.message)", fields: fields,
                format: format))
    }

    static func line(
        time: String, level: Logger.Level, message: String, fields: [(String, String)],
        format: LogFormat
    ) -> String {
        switch format {
        case .json:
            var members: [JSONValue.Member] = [
                .init("time", .string(time)), .init("level", .string(level.rawValue)),
                .init("message", .string(message)),
            ]
            for (key, value) in fields where !["time", "level", "message"].contains(key) {
                members.append(.init(key, .string(value)))
            }
            return String(decoding: JSONValue.object(members).serialized, as: UTF8.self) + "\n"
        case .text:
            let rendered = fields.map { "\(escaped($0.0))=\(escaped($0.1))" }
            return ([time, level.rawValue, escaped(message)] + rendered).joined(separator: " ")
                + "\n"
        }
    }

    /// Text-format values: printable as is; spaces, quotes, backslashes and control
    /// characters make the value a JSON-style quoted string, so a line stays one line and
    /// `key=value` pairs stay unambiguous.
    static func escaped(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" && $0 != "="
            }
        if plain { return text }
        return String(decoding: JSONValue.string(text).serialized, as: UTF8.self)
    }

    /// stdout through `LogLineQueue.standardOutput`: the caller never waits for the reader.
    package static let standardOutput: @Sendable (String) -> Void = { line in
        LogLineQueue.standardOutput.enqueue(line)
    }
}
