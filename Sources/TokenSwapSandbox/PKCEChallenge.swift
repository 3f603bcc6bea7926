import Sealing
import TokenSwap

/// A PKCE code challenge from the authorize request (RFC 7636 §4.2–4.6).
struct PKCEChallenge: Sendable, Equatable {
    enum Method: String, Sendable {
        case s256 = "S256"
        case plain
    }

    let challenge: String
    let method: Method

    /// nil when the challenge or method is not what RFC 7636 §4.2 allows.
    init?(challenge: String, method: String?) {
        guard let parsed = Method(rawValue: method ?? Method.plain.rawValue),
            Self.isVerifierSyntax(challenge)
        else {
            return nil
        }
        self.challenge = challenge
        self.method = parsed
    }

    /// `code_verifier = 43*128unreserved` (§4.1); S256 challenges have the same alphabet.
    static func isVerifierSyntax(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "~")
            }
    }

    /// §4.6: S256 compares BASE64URL(SHA256(verifier)), plain compares the verifier itself.
    func isSatisfied(by verifier: String?) -> Bool {
        guard let verifier, Self.isVerifierSyntax(verifier) else { return false }
        switch method {
        case .plain:
            return verifier == challenge
        case .s256:
            guard let digest = SHA256.digest(Array(verifier.utf8)) else { return false }
            return Base64URL.encode(digest) == challenge
        }
    }
}
