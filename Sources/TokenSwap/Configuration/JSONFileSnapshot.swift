import Configuration

/// The `--config` file as swift-configuration sees it, parsed by the service's own strict
/// `JSONParser`. In place of the library's `JSONSnapshot`, which needs full Foundation
/// (`JSONSerialization`) and so links ICU's data into the binary (its size: docs/perf-log,
/// "After the footprint and hot-path work"); the package's JSON trait is off for that
/// reason.
///
/// Same shape as `JSONSnapshot`: nested objects flatten to dot-separated keys, `null`
/// means absent, arrays are all strings or all numbers/booleans, and numbers convert to
/// the asked type only when exact.
struct JSONFileSnapshot: FileConfigSnapshot {
    struct ParsingOptions: FileParsingOptions {
        var isSecret: @Sendable (_ key: String) -> Bool

        static var `default`: Self { .init { _ in false } }
    }

    /// Why the file is not a settings object. Carries key paths, never values.
    enum SnapshotError: Error, Equatable {
        case notJSON(JSONParseError)
        case topLevelNotObject
        case unsupportedValue(key: String)
        case mismatch(key: String, type: ConfigType)
    }

    enum Scalar: Sendable {
        case string(String)
        /// The JSON number's text (already grammar-checked by the parser), or a Boolean.
        case number(String)
        case bool(Bool)
    }

    enum Setting: Sendable {
        case scalar(Scalar)
        case array([Scalar])
    }

    let providerName: String
    private let values: [String: (setting: Setting, isSecret: Bool)]

    init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        let bytes = data.withUnsafeBytes { Array($0) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw SnapshotError.notJSON(error)
        }
        guard case .object(let members) = root else { throw SnapshotError.topLevelNotObject }
        var values: [String: (setting: Setting, isSecret: Bool)] = [:]
        var pending: [(key: String, value: JSONValue)] = members.map { ($0.name, $0.value) }
        while let (key, value) = pending.popLast() {
            let setting: Setting
            switch value {
            case .null: continue
            case .object(let members):
                pending.append(contentsOf: members.map { (key + "." + $0.name, $0.value) })
                continue
            case .array(let elements):
                setting = .array(try Self.homogeneous(elements, key: key))
            default:
                guard let scalar = Self.scalar(value) else {
                    throw SnapshotError.unsupportedValue(key: key)
                }
                setting = .scalar(scalar)
            }
            values[key] = (setting, parsingOptions.isSecret(key))
        }
        self.providerName = providerName
        self.values = values
    }

    private static func scalar(_ value: JSONValue) -> Scalar? {
        switch value {
        case .string(let text): .string(text)
        case .number(let text): .number(text)
        case .bool(let flag): .bool(flag)
        default: nil
        }
    }

    /// All strings, or all numbers and Booleans, as `JSONSnapshot` requires.
    private static func homogeneous(_ elements: [JSONValue], key: String) throws -> [Scalar] {
        var scalars: [Scalar] = []
        scalars.reserveCapacity(elements.count)
        var wantsString: Bool?
        for element in elements {
            guard let scalar = scalar(element) else {
                throw SnapshotError.unsupportedValue(key: key)
            }
            let isString = if case .string = scalar { true } else { false }
            if let wantsString, wantsString != isString {
                throw SnapshotError.unsupportedValue(key: key)
            }
            wantsString = isString
            scalars.append(scalar)
        }
        return scalars
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let encodedKey = key.components.joined(separator: ".")
        guard let (setting, isSecret) = values[encodedKey] else {
            return LookupResult(encodedKey: encodedKey, value: nil)
        }
        guard let content = Self.content(setting, type: type) else {
            throw SnapshotError.mismatch(key: encodedKey, type: type)
        }
        return LookupResult(encodedKey: encodedKey, value: ConfigValue(content, isSecret: isSecret))
    }

    private static func content(_ setting: Setting, type: ConfigType) -> ConfigContent? {
        switch (setting, type) {
        case (.scalar(.string(let text)), .string): return .string(text)
        case (.scalar(let scalar), .int): return int(scalar).map { .int($0) }
        case (.scalar(let scalar), .double): return double(scalar).map { .double($0) }
        case (.scalar(let scalar), .bool): return bool(scalar).map { .bool($0) }
        case (.array(let scalars), .stringArray):
            var strings: [String] = []
            for case .string(let text) in scalars { strings.append(text) }
            return strings.count == scalars.count ? .stringArray(strings) : nil
        case (.array(let scalars), .intArray):
            let ints = scalars.compactMap(int)
            return ints.count == scalars.count ? .intArray(ints) : nil
        case (.array(let scalars), .doubleArray):
            let doubles = scalars.compactMap(double)
            return doubles.count == scalars.count ? .doubleArray(doubles) : nil
        case (.array(let scalars), .boolArray):
            let bools = scalars.compactMap(bool)
            return bools.count == scalars.count ? .boolArray(bools) : nil
        default: return nil
        }
    }

    private static func int(_ scalar: Scalar) -> Int? {
        switch scalar {
        case .string: return nil
        case .bool(let flag): return flag ? 1 : 0
        case .number(let text):
            if let exact = Int(text) { return exact }
            guard let double = Double(text) else { return nil }
            return Int(exactly: double)
        }
    }

    private static func double(_ scalar: Scalar) -> Double? {
        switch scalar {
        case .string: return nil
        case .bool(let flag): return flag ? 1 : 0
        case .number(let text): return Double(text)
        }
    }

    private static func bool(_ scalar: Scalar) -> Bool? {
        switch scalar {
        case .string: return nil
        case .bool(let flag): return flag
        case .number(let text): return Double(text).map { $0 != 0 }
        }
    }

    var description: String { "\(providerName)[\(values.count) values]" }

    /// Key names only: values may be secrets.
    var debugDescription: String {
        "\(providerName)[\(values.count) values: \(values.keys.sorted().joined(separator: ", "))]"
    }
}
