/// What a provider's refresh tokens look like. A legacy format without authentication
/// decrypts a wrong or damaged token into garbage rather than failing, so its plaintext
/// must have this shape before the provider is called with it (CONTRACT §9).
package struct RefreshTokenShape: Sendable {
    let lengths: ClosedRange<Int>
    let allows: @Sendable (UInt8) -> Bool

    package init(_ preset: ProviderPreset) {
        switch preset {
        case .spotify, .linkedin:
            // Both issue opaque tokens in the base64url alphabet ("AQ…", 100-400 long);
            // the token68 characters (RFC 9110 §11.2) leave room for either alphabet.
            lengths = 16...2048
            allows = { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
                case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                    UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                    true
                default: false
                }
            }
        case .generic, .google, .github, .l2p:
            // RFC 6749 Appendix A.17: refresh-token = 1*VSCHAR (%x20-7E); at least 8, as a
            // token worth refreshing has that much entropy. The device-flow presets are not
            // ones the legacy swap services served, so they get the general shape.
            lengths = 8...4096
            allows = { (0x20...0x7E).contains($0) }
        }
    }

    func matches(_ bytes: [UInt8]) -> Bool {
        lengths.contains(bytes.count) && bytes.allSatisfy(allows)
    }
}
