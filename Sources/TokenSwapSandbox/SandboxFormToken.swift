import HTTPCore
import Sealing
import TokenSwap

/// The verification form's CSRF token (a signed double-submit cookie): the page sets a
/// random cookie that only this site's pages get back (`SameSite=Strict`, `HttpOnly`) and
/// carries HMAC-SHA256(process secret, cookie) in a hidden field. A decision is taken only
/// when both arrive and match, so another site cannot make a signed-in browser approve an
/// attacker's device code (RFC 8628 §5.4 names remote phishing; CSRF is its quiet form):
/// it can neither read the field nor set a cookie the secret signs.
struct SandboxFormToken: Sendable {
    static let cookieName = "tokenswap_sandbox_form"
    static let fieldName = "form_token"
    /// 32 characters of `SandboxProvider.randomValue`, 190 bits.
    static let cookieLength = 32

    /// Random per process: tokens die with it, as everything the sandbox holds does.
    let secret: [UInt8]

    init() {
        var generator = SystemRandomNumberGenerator()
        secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The field value for `cookie`; nil only if the digest failed.
    func field(forCookie cookie: String) -> String? {
        SHA256.hmac(key: secret, message: Array(cookie.utf8)).map(Base64URL.encode)
    }

    /// Whether `field` is the one this process made for `cookie` (compared in constant time).
    func accepts(field: String?, cookie: String?) -> Bool {
        guard let field, let cookie, Self.isCookieValue(cookie),
            let expected = self.field(forCookie: cookie)
        else { return false }
        let (sent, wanted) = (Array(field.utf8), Array(expected.utf8))
        guard sent.count == wanted.count else { return false }
        return zip(sent, wanted).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The form cookie a request carries, whatever else its `Cookie` fields hold.
    static func cookie(in headers: HTTPHeaders) -> String? {
        for field in headers.values("Cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2,
                    parts[0].trimmingWhitespace() == cookieName
                else { continue }
                let value = String(parts[1]).trimmingWhitespace()
                if isCookieValue(value) { return value }
            }
        }
        return nil
    }

    static func isCookieValue(_ text: String) -> Bool {
        text.utf8.count == cookieLength
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                    || (0x61...0x7A).contains(byte)
            }
    }

    /// The `Set-Cookie` value: scoped to the page, never sent cross-site or to scripts.
    static func setCookie(_ value: String) -> String {
        "\(cookieName)=\(value); Path=/sandbox/device; HttpOnly; SameSite=Strict"
    }
}
