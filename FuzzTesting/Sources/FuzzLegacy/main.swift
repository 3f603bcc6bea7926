import TokenSwapFuzzing

// libFuzzer entry point over the legacy decoders (CONTRACT §9): every input is presented,
// as text, to every `LegacyFormat` under a fixed secret, as the service does with a
// refresh token that did not open natively, for the refresh-token shape of every preset.
// Checks, besides "never crash":
// - the transport repairs leave no blank, CR or LF, and leave a text of base64 or hex
//   characters alone;
// - base64 and hex decoding give the byte count their character count says;
// - what opens is what the format decrypts, and only a plaintext in the refresh-token
//   grammar (RFC 6749 Appendix A.17: 1*VSCHAR, at most 4096) ever opens, so nothing else
//   goes upstream; the stricter Spotify/LinkedIn shape admits no '"' or space.
//
// The secret is a fixed test value (FuzzTesting/Corpus/Legacy holds real tokens of each
// format under it, made by Tests/EndToEndTests/Fixtures/legacy_token.py).

let fuzzLegacySecret = "tokenswap-fuzzing-legacy-secret"

private let probes = FuzzEntryPoints.LegacyProbe.everyFormat(secret: fuzzLegacySecret)

private func isBase64Character(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "="):
        true
    default: false
    }
}

private func checkText(_ token: String) {
    let repaired = FuzzEntryPoints.repairedLegacyText(token)
    let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
    if repaired.utf8.contains(where: blanks.contains) {
        fatalError("legacy: a repaired token still holds a blank or line break")
    }
    if token.utf8.allSatisfy(isBase64Character), !repaired.utf8.elementsEqual(token.utf8) {
        fatalError("legacy: the repairs changed a clean base64 or hex token")
    }
    if let decoded = FuzzEntryPoints.legacyBase64(repaired) {
        let significant = repaired.utf8.count { $0 != UInt8(ascii: "=") }
        if decoded.count != significant * 3 / 4 {
            fatalError("legacy: base64 decoded to a byte count its length does not give")
        }
    }
    if let decoded = FuzzEntryPoints.legacyHex(repaired) {
        if decoded.count * 2 != repaired.utf8.count {
            fatalError("legacy: hex decoded to a byte count its length does not give")
        }
        let digits = Array("0123456789abcdef".utf8)
        let lower = repaired.lowercased()
        if !decoded.flatMap({ [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }).elementsEqual(
            lower.utf8)
        {
            fatalError("legacy: hex decoding does not re-encode to its text")
        }
    }
}

private func checkOpen(_ token: String) {
    for probe in probes {
        let decrypted = probe.decrypt(token)
        // What does not decrypt cannot open under any shape: one preset shows it, and the
        // input costs a sixth of the decryptions.
        for preset in decrypted == nil ? [.generic] : FuzzEntryPoints.Preset.all {
            guard let plaintext = probe.open(token, preset: preset) else { continue }
            if plaintext != decrypted {
                fatalError("legacy: what opened is not what the format decrypts")
            }
            guard (1...4096).contains(plaintext.count),
                plaintext.allSatisfy({ (0x20...0x7E).contains($0) })
            else { fatalError("legacy: a plaintext outside the refresh-token grammar opened") }
            if preset.name == "spotify" || preset.name == "linkedin",
                plaintext.contains(where: { $0 == 0x20 || $0 == UInt8(ascii: "\"") })
            {
                fatalError("legacy: a Spotify/LinkedIn plaintext with a blank or quote opened")
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLegacy(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let token = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    checkText(token)
    checkOpen(token)
    return 0
}
