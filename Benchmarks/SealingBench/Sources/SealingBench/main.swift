import Sealing

// Seal+open pairs per second on one thread, for a 130-byte refresh token (the size
// Spotify issues). Usage: SealingBench [seconds per measurement, default 3]

let seconds = CommandLine.arguments.dropFirst().first.flatMap { Double($0) } ?? 3
let token = [UInt8](("AQD" + String(repeating: "x9_-Zq", count: 21) + "A").utf8)
let context = SealingContext(provider: "spotify", clientID: "0123456789abcdef0123456789abcdef")

/// Runs `body` in batches until `seconds` have passed; returns operations per second.
func measure(_ label: String, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let batch = 10_000
    var operations = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        for _ in 0..<batch { try body() }
        operations += batch
        elapsed = clock.now - start
    } while elapsed < .seconds(seconds)
    let perSecond =
        Double(operations)
        / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    print("\(label): \(Int(perSecond)) per second (\(operations) in \(elapsed))")
    return perSecond
}

do {
    let ring = try KeyRing.ephemeral()
    let sealed = try ring.seal(token, context: context)
    print("sealed token: \(sealed.utf8.count) characters for \(token.count) plaintext bytes")
    _ = try measure("seal") { _ = try ring.seal(token, context: context) }
    _ = try measure("open") { _ = try ring.open(sealed, context: context) }
    let pairs = try measure("seal+open pairs") {
        let text = try ring.seal(token, context: context)
        let opened = try ring.open(text, context: context)
        guard opened.plaintext.count == token.count else { throw SealingError.invalidToken }
    }
    print("RESULT seal+open pairs per second per core: \(Int(pairs))")
} catch {
    print("benchmark failed: \(error)")
}
