import Foundation

/// A JSON object body read with Foundation's parser (the client kit depends on no server
/// target, so it does not share the service's own parser), with the lenient number
/// reading token answers need.
struct JSONObject {
    private let members: [String: Any]

    init?(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data),
            let members = object as? [String: Any]
        else { return nil }
        self.members = members
    }

    /// A non-empty string member.
    func string(_ name: String) -> String? {
        guard let value = members[name] as? String, !value.isEmpty else { return nil }
        return value
    }

    func bool(_ name: String) -> Bool? {
        members[name] as? Bool
    }

    /// A whole number of seconds, from a JSON number or a numeric string; nil when it is
    /// missing, negative, fractional beyond rounding, or not a number at all.
    func seconds(_ name: String) -> Int? {
        let number: Double?
        switch members[name] {
        case let text as String:
            number = Double(text.trimmingCharacters(in: .whitespaces))
        case let value as NSNumber:
            number = value.doubleValue
        default:
            number = nil
        }
        guard let number, number.isFinite, number >= 0, number < Double(Int32.max) else {
            return nil
        }
        return Int(number.rounded(.down))
    }
}
