/// A setting's value for each provider, by the provider's name (`TOKENSWAP_<NAME>_…`), and
/// a default for a name it does not list: a provider's DPoP mode (CONTRACT §13) and grant
/// family policy (§14).
///
/// Read on every request, several times on a refresh, so found by a scan of the names
/// rather than by hashing: a service names a handful of providers, and comparing a short
/// name costs less than hashing it (BENCHMARKS.md, session 13).
package struct PerProvider<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Sorted by name, each name once, so equal settings compare equal.
    private let entries: [Entry]
    private let fallback: Value

    private struct Entry: Sendable, Equatable {
        let name: String
        let value: Value
    }

    package init(_ values: [String: Value], default fallback: Value) {
        entries = values.map { Entry(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
        self.fallback = fallback
    }

    /// The value for the provider named `name`, or the default.
    package subscript(name: String) -> Value {
        entries.first { $0.name == name }?.value ?? fallback
    }
}
