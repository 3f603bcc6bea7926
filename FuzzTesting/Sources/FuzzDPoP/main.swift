import Sealing
import TokenSwapFuzzing

// libFuzzer entry point over DPoP proofs (RFC 9449 §4.3, CONTRACT §13): the compact-JWS
// reader, the header and claim rules, the nonce and the ES256 check, exactly as the
// service runs them for `POST https://tokenswap.example/v1/spotify/refresh` at a fixed
// "now", with nonces on and off. Each input is used three ways: as one `DPoP` field; as
// several fields split at line breaks; and, when it holds a line break, as the raw JSON
// of a header and claims (before and after the first one), encoded and given a 64-byte
// signature, so that mutations reach the JSON rules instead of dying in base64url.
// Besides "never crash": an outcome is one of the metric's labels, a proof with two
// fields is never valid, only a valid proof has a thumbprint (of 32 bytes), `htu`
// normalisation is a fixed point, and the flat claims reader agrees with the JSON parser on
// the input and on its claims half (what it reads, the parser reads to the same members).

/// 2026-01-01, the time the seeds' `iat` says, so valid seeds stay valid on any day.
private let now: Int64 = 1_767_225_600
private let outcomes: Set = [
    "valid", "invalid", "nonce_required", "replayed", "key_mismatch", "missing",
]

private let withNonces = FuzzEntryPoints.DPoPProbe(noncesRequired: true, now: now)!
private let withoutNonces = FuzzEntryPoints.DPoPProbe(noncesRequired: false, now: now)!

private func check(_ fields: [String]) {
    for probe in [withNonces, withoutNonces] {
        let (outcome, thumbprint) = probe.check(fields: fields, now: now)
        guard outcomes.contains(outcome) else { fatalError("dpop: unknown outcome \(outcome)") }
        guard (outcome == "valid") == (thumbprint != nil),
            thumbprint.map({ $0.count == 32 }) ?? true
        else { fatalError("dpop: a thumbprint without a valid proof, or of the wrong size") }
        if fields.count > 1, outcome == "valid" { fatalError("dpop: two fields were valid") }
        if fields.isEmpty, outcome != "missing" { fatalError("dpop: no field was not missing") }
    }
}

private func checkClaimReaders(_ bytes: [UInt8]) {
    guard FuzzEntryPoints.dpopClaimReadersAgree(bytes) else {
        fatalError("dpop: the flat claims reader and the JSON parser disagree")
    }
}

private func checkTarget(_ text: String) {
    guard let once = FuzzEntryPoints.normalisedDPoPTarget(text) else { return }
    guard FuzzEntryPoints.normalisedDPoPTarget(once) == once else {
        fatalError("dpop: htu normalisation is not a fixed point")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDPoP(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: bytes, as: UTF8.self)
    check([text])
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.count > 1 { check(lines) }
    checkClaimReaders(bytes)
    if let newline = bytes.firstIndex(of: 0x0A) {
        let header = Array(bytes[..<newline])
        let claims = Array(bytes[(newline + 1)...])
        checkClaimReaders(claims)
        let signature = [UInt8](repeating: 0x5A, count: 64)
        check([
            Base64URL.encode(header) + "." + Base64URL.encode(claims) + "."
                + Base64URL.encode(signature)
        ])
    }
    checkTarget(text)
    return 0
}
