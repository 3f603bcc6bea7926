import TokenSwapFuzzing

// libFuzzer entry point over the device-code envelope (CONTRACT §7) and what a device poll
// does with its numbers. The envelope's bytes are normally sealed, but a provider with a
// legacy decoder also tries those on a device code that does not open (issue 18, item 1),
// and an unauthenticated format lets a client choose the plaintext: so every number in it
// is an outside number. Each input is parsed as an envelope; one that parses must survive
// the trip through its own plaintext, and is then polled at a fixed wall-clock time:
// remaining lifetime, the poll schedule's first poll, an immediate second one (RFC 8628
// §3.5: too soon, +5 s), the provider's `slow_down`. Besides "never crash" (no overflow
// trap on any number), the intervals may only grow.

/// A fixed "now" (2027-01-15), so a crash replays the same way on any day.
private let now = 1_800_000_000

/// The checks on one plaintext, which may or may not be an envelope.
private func check(_ bytes: [UInt8]) {
    guard let envelope = FuzzEntryPoints.deviceEnvelope(bytes) else {
        if FuzzEntryPoints.pollDevice(envelope: bytes, now: now) != .notAnEnvelope {
            fatalError("device: bytes that are no envelope were polled")
        }
        return
    }
    let plaintext = FuzzEntryPoints.deviceEnvelopePlaintext(
        deviceCode: envelope.deviceCode, expiresAt: envelope.expiresAt,
        intervalSeconds: envelope.intervalSeconds)
    guard let again = FuzzEntryPoints.deviceEnvelope(plaintext), again == envelope else {
        fatalError("device: an envelope did not survive its own plaintext")
    }

    switch FuzzEntryPoints.pollDevice(envelope: bytes, now: now) {
    case .notAnEnvelope:
        fatalError("device: an envelope was refused by the poll")
    case .expired:
        if envelope.expiresAt > now { fatalError("device: a live code was called expired") }
    case .polled(let first, let second, let tooSoon, let raised):
        if envelope.expiresAt <= now { fatalError("device: an expired code was polled") }
        guard second >= first, raised >= second, tooSoon || second == first else {
            fatalError("device: a poll interval shrank")
        }
    }
}

/// The input's first 16 bytes as the two numbers (little-endian, the whole Int range) of
/// an envelope written as the service writes them, the rest as its device code: a forged
/// plaintext chooses its numbers freely, and text mutations rarely reach the edges.
private func envelope(numbersFrom bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 16 else { return nil }
    func int(at offset: Int) -> Int {
        (0..<8).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    let code = String(decoding: bytes.dropFirst(16), as: UTF8.self)
    return FuzzEntryPoints.deviceEnvelopePlaintext(
        deviceCode: code.isEmpty ? "code" : code, expiresAt: int(at: 0),
        intervalSeconds: int(at: 8))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceCode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    check(bytes)
    if let forged = envelope(numbersFrom: bytes) { check(forged) }
    return 0
}
