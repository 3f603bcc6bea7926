import Testing

@testable import TokenSwap

/// The sealed device code's plaintext (CONTRACT §7): numbers outside what this service
/// writes do not open (CONTRACT §15), since they reach clock arithmetic in the poll.
@Suite struct DeviceCodeEnvelopeTests {
    static func envelope(_ text: String) -> DeviceCodeEnvelope? {
        DeviceCodeEnvelope(plaintext: Array(text.utf8))
    }

    /// The envelope of issue 18's crash: `expiresAt - now` trapped on Int.min.
    @Test func extremeNumbersDoNotOpen() {
        let extremes = [
            #"{"d":"x","e":-9223372036854775808,"i":9223372036854775807}"#,
            #"{"d":"x","e":9223372036854775807,"i":5}"#,
            #"{"d":"x","e":-9223372036854775808,"i":5}"#,
            #"{"d":"x","e":1900000000,"i":9223372036854775807}"#,
            #"{"d":"x","e":1900000000,"i":-9223372036854775808}"#,
            #"{"d":"x","e":1900000000,"i":-5}"#,
            #"{"d":"x","e":1900000000,"i":0}"#,
            #"{"d":"x","e":1900000000,"i":3601}"#,
            #"{"d":"x","e":-1,"i":5}"#,
            #"{"d":"x","e":253402300800,"i":5}"#,
            // Past Int's range: not a number Int(_:) reads, and never a trap.
            #"{"d":"x","e":99999999999999999999999,"i":5}"#,
            #"{"d":"x","e":1900000000,"i":1e3}"#,
        ]
        for text in extremes {
            #expect(Self.envelope(text) == nil, "\(text)")
        }
    }

    @Test func theEdgesOfEachRangeOpen() {
        for (expiresAt, interval) in [(0, 1), (253_402_300_799, 3600), (1_900_000_000, 5)] {
            let envelope = DeviceCodeEnvelope(
                deviceCode: "dc", expiresAt: expiresAt, intervalSeconds: interval)
            #expect(Self.envelope(envelope.plaintext) == envelope)
        }
    }
}
