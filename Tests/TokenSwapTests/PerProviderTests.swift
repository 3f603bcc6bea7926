import Testing

@testable import TokenSwap

/// A setting's value per provider name (`TOKENSWAP_<NAME>_…`), found by a scan.
@Suite struct PerProviderTests {
    @Test func aListedNameHasItsValueAndAnyOtherTheDefault() {
        let long = String(repeating: "p", count: 32)  // past a small string's 15 bytes
        let modes = PerProvider(
            ["spotify": DPoPMode.required, "spotify-2": .off, long: .required],
            default: .optional)
        #expect(modes["spotify"] == .required)
        #expect(modes["spotify-2"] == .off)
        #expect(modes[long] == .required)
        #expect(modes[String(long.dropLast()) + "q"] == .optional)
        #expect(modes["spotif"] == .optional)
        #expect(modes["Spotify"] == .optional)
        #expect(modes[""] == .optional)
        #expect(PerProvider([String: DPoPMode](), default: .off)["spotify"] == .off)
    }

    /// Settings loaded in any order are equal; a different value or default is not.
    @Test func equalSettingsCompareEqualWhateverTheirOrder() {
        var names = (0..<20).map { "provider-\($0)" }
        let one = PerProvider(
            Dictionary(uniqueKeysWithValues: names.map { ($0, $0.count) }), default: 0)
        names.shuffle()
        let other = PerProvider(
            Dictionary(uniqueKeysWithValues: names.map { ($0, $0.count) }), default: 0)
        #expect(one == other)
        #expect(one != PerProvider(["provider-0": 1], default: 0))
        #expect(
            PerProvider(["a": 1], default: 0) != PerProvider(["a": 1], default: 2))
    }
}
