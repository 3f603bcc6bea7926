import Foundation
import Testing

@testable import TokenSwap
@testable import TokenSwapFixtures

/// A loaded configuration printed every way Swift prints a value (interpolation,
/// `String(reflecting:)`, `dump`) never shows a client secret, the Basic credentials made
/// from it, or key material: someone will log a configuration one day.
@Suite struct ConfigurationPrintingTests {
    typealias F = ConfigurationFixtures

    static func printedForms(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    /// Everything that must not appear: the secret, `id:secret` in base64 (and with
    /// `Basic `), and the key ring's key text.
    static func forbidden(clientID: String, secret: String) -> [String] {
        let pair = Data("\(clientID):\(secret)".utf8).base64EncodedString()
        let key = String(F.keyRingText.split(separator: ":")[1])
        return [secret, pair, String(pair.dropLast(4)), key, String(key.prefix(16))]
    }

    @Test func aLoadedConfigurationPrintsNoSecret() async throws {
        var environment = F.minimalEnvironment()
        environment["TOKENSWAP_PROVIDERS"] = "spotify,acme"
        environment["TOKENSWAP_ACME_CLIENT_ID"] = "acme-id"
        environment["TOKENSWAP_ACME_CLIENT_SECRET"] = "acme-S3CRET-never-printed-71d2"
        environment["TOKENSWAP_ACME_REDIRECT_URI"] = "myapp://acme"
        environment["TOKENSWAP_ACME_TOKEN_URL"] = "https://acme.example/token"
        environment["TOKENSWAP_ACME_AUTH"] = "client_secret_basic"
        let configuration = try await F.load(environment)
        let forbidden =
            Self.forbidden(clientID: "client-id-1", secret: F.secret)
            + Self.forbidden(clientID: "acme-id", secret: "acme-S3CRET-never-printed-71d2")
        let values: [Any] = [
            configuration, configuration.providers, configuration.defaultProvider,
            configuration.keyRing,
        ]
        for value in values {
            for printed in Self.printedForms(value) {
                for secret in forbidden {
                    #expect(!printed.contains(secret), "leaked in: \(printed.prefix(80))…")
                }
            }
        }
        // The Basic credentials are still what goes upstream.
        let basic = configuration.defaultProvider.basicCredentials.revealed
        #expect(basic == "Basic " + Data("client-id-1:\(F.secret)".utf8).base64EncodedString())
    }
}
