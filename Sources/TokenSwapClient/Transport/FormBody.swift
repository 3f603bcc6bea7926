import Foundation

/// An `application/x-www-form-urlencoded` body, as tokenswap's endpoints take it
/// (CONTRACT §2). Encoded per the WHATWG URL standard's form serializer: space as `+`,
/// every byte outside `*-._` and ASCII alphanumerics percent-encoded, so a sealed token
/// or a scope list arrives byte for byte.
struct FormBody: Sendable {
    private var fields: [(name: String, value: String)] = []

    init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    var encoded: Data {
        let pairs = fields.map { Self.encode($0.name) + "=" + Self.encode($0.value) }
        return Data(pairs.joined(separator: "&").utf8)
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
                UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return out
    }

    private static let hexDigits = "0123456789ABCDEF".map(String.init)
}
