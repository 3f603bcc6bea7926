extension Double {
    /// A wait in whole seconds for a description ("3600 s"), rounded up, for any value:
    /// `Int(_:)` traps on NaN, infinity and anything past `Int.max`, and a description must
    /// never trap whatever a server or an app put in the error it describes.
    var waitText: String {
        if isNaN { return "an unknown time" }
        let whole = rounded(.up)
        guard whole <= Self.longestPrintedWait else {
            return "more than \(Int(Self.longestPrintedWait)) s"
        }
        return "\(Int(exactly: Swift.max(whole, 0)) ?? 0) s"
    }

    /// Past this (about 31 years) a wait is not worth a figure; the bound keeps the
    /// conversion to `Int` exact.
    private static let longestPrintedWait: Double = 1_000_000_000
}
