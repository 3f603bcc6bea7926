import Transport

/// Where the shared store is and how to log in (CONTRACT §12, `TOKENSWAP_STATE_URL`):
/// `redis://[[user]:password@]host[:port][/db]`, or `rediss://` for TLS (always
/// verified). IPv6 literals in brackets; port 6379 by default; database 0 by default.
/// The user and password are percent-decoded (RFC 3986 §2.1). The password may instead
/// come separately (`TOKENSWAP_STATE_PASSWORD`), so it need not sit in a URL; both at
/// once is refused as ambiguous. The description never shows the password.
public struct RESPEndpoint: Sendable, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// `rediss://`: TLS with certificate and hostname verification.
    public let usesTLS: Bool
    /// A DNS name or an IP literal, without brackets for IPv6.
    public let host: String
    public let port: UInt16
    /// The database `SELECT`ed on connect (0 is the server's default, no command sent).
    public let database: Int
    /// The ACL user (Redis ≥ 6), when AUTH names one.
    public let username: String?
    /// The password, as bytes (AUTH's argument). Package-only: nothing prints it.
    package let password: [UInt8]?

    public static let defaultPort: UInt16 = 6379
    /// The largest database index accepted (Redis's `databases` is 16 by default; a
    /// bound keeps the digits from overflowing).
    public static let maxDatabase = 1_000_000

    public var hasPassword: Bool { password != nil }

    public init(url: String, password separatePassword: String? = nil) throws(RESPError) {
        var rest: Substring
        if let r = Self.dropPrefixIgnoringCase("rediss://", url) {
            usesTLS = true
            rest = r
        } else if let r = Self.dropPrefixIgnoringCase("redis://", url) {
            usesTLS = false
            rest = r
        } else {
            throw .invalidURL(reason: "scheme must be redis or rediss")
        }
        guard !rest.contains("?"), !rest.contains("#") else {
            throw .invalidURL(reason: "query and fragment are not supported")
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        var user: String?
        var urlPassword: [UInt8]?
        // The last "@" ends the userinfo: a password may contain "@" unencoded.
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userinfo.firstIndex(of: ":") {
                let name = try Self.percentDecoded(userinfo[..<colon], field: "user")
                user = name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
                let secret = try Self.percentDecoded(
                    userinfo[userinfo.index(after: colon)...], field: "password")
                guard !secret.isEmpty else { throw .invalidURL(reason: "empty password") }
                urlPassword = secret
            } else {
                // "user@host": the password comes separately (TOKENSWAP_STATE_PASSWORD).
                let name = try Self.percentDecoded(userinfo, field: "user")
                guard !name.isEmpty else { throw .invalidURL(reason: "empty userinfo") }
                guard separatePassword != nil else {
                    throw .invalidURL(reason: "a user needs a password (user:password@)")
                }
                user = String(decoding: name, as: UTF8.self)
            }
        }
        if urlPassword != nil, separatePassword != nil {
            throw .invalidURL(reason: "password given both in the URL and separately")
        }
        if let separatePassword, separatePassword.isEmpty {
            throw .invalidURL(reason: "empty password")
        }
        username = user
        password = urlPassword ?? separatePassword.map { Array($0.utf8) }
        do throws(URLAuthority.Invalid) {
            let split = try URLAuthority.split(authority)
            (host, port) = (split.host, split.port ?? Self.defaultPort)
        } catch {
            throw .invalidURL(reason: error.reason)
        }
        database = try Self.database(path)
    }

    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let login = username.map { "\($0)@" } ?? ""
        let secret = hasPassword ? " (with password)" : ""
        return "\(usesTLS ? "rediss" : "redis")://\(login)\(name):\(port)/\(database)\(secret)"
    }

    public var debugDescription: String { description }

    private static func dropPrefixIgnoringCase(_ prefix: String, _ text: String) -> Substring? {
        guard text.utf8.count >= prefix.utf8.count,
            text.prefix(prefix.count).lowercased() == prefix
        else { return nil }
        return text.dropFirst(prefix.count)
    }

    /// `%XX` decoded (RFC 3986 §2.1); a stray `%` is refused. The field is named in the
    /// error, never its value.
    private static func percentDecoded(_ text: Substring, field: String) throws(RESPError)
        -> [UInt8]
    {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(hexValue),
                let low = bytes.next().flatMap(hexValue)
            else { throw .invalidURL(reason: "bad percent-encoding in the \(field)") }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// "" or "/" is database 0; "/N" is N.
    private static func database(_ path: Substring) throws(RESPError) -> Int {
        let digits = path.dropFirst()
        if digits.isEmpty { return 0 }
        guard let number = decimal(digits, max: maxDatabase) else {
            throw .invalidURL(reason: "database must be a number 0...\(maxDatabase)")
        }
        return number
    }

    /// A non-empty run of ASCII digits whose value is at most `max`, or nil.
    private static func decimal(_ text: Substring, max: Int) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            guard value <= max else { return nil }
        }
        return value
    }
}
