import Testing

/// The check every test ends with: none of the values it used that must stay secret
/// (client secrets, codes, raw and sealed tokens, keys) appears in anything a child
/// process printed.
func expectNoSecrets(
    in outputs: [String], _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    for secret in secrets where !secret.isEmpty {
        for output in outputs {
            #expect(
                !output.contains(secret), "a secret value appeared in a child's output",
                sourceLocation: sourceLocation)
        }
    }
}
