/// The values a numeric setting accepts, and the one-line refusal for anything else.
///
/// Every number an operator types ends up in arithmetic somewhere: a rate of `1e19`
/// overflowed `Int(_:)` (a trap, not an error) and one of `1e-19` made a `Retry-After` of
/// 10^19 seconds. So each numeric setting has a documented range (README, settings table)
/// and values outside it, NaN and infinities included, stop start-up naming the setting.
package struct SettingRange: Sendable {
    package let lowest: Double
    package let highest: Double
    /// What the refusal says is expected, e.g. "requests per second, 0 (off) or 0.001 to 1000000".
    package let expected: String
    /// A value accepted outside `lowest...highest` (0 for "off"), if any.
    package let alsoAllowed: Double?

    package init(_ range: ClosedRange<Double>, expected: String, alsoAllowed: Double? = nil) {
        lowest = range.lowerBound
        highest = range.upperBound
        self.expected = expected
        self.alsoAllowed = alsoAllowed
    }

    package func contains(_ value: Double) -> Bool {
        // NaN compares false with everything, so it falls out here too.
        (lowest...highest).contains(value) || (alsoAllowed.map { $0 == value } ?? false)
    }

    /// `value` if it is in range, else the refusal naming `variable` (an environment
    /// variable or a command-line option).
    package func checked(_ value: Double, variable: String) throws(ConfigurationError) -> Double {
        guard contains(value) else {
            throw ConfigurationError(variable: variable, problem: .invalid(expected: expected))
        }
        return value
    }

    /// As `checked`, for whole-number settings.
    package func checked(_ value: Int, variable: String) throws(ConfigurationError) -> Int {
        _ = try checked(Double(value), variable: variable)
        return value
    }
}
