import TLS

extension ServiceConfiguration {
    /// The TLS pair, or nil when neither file is set. The pair is loaded exactly as the
    /// server will load it, so a key that does not match its certificate, or a file that
    /// is not PEM, stops start-up (and `check-config`) with one line naming the setting.
    static func tlsSettings(_ source: ConfigurationSource) throws(ConfigurationError)
        -> TLSSettings?
    {
        let certificate = try source.string(.tlsCertFile)
        let key = try source.string(.tlsKeyFile)
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (nil, _?):
            throw ConfigurationError(
                variable: ConfigurationKey.tlsCertFile.environmentName, problem: .missing)
        case (_?, nil):
            throw ConfigurationError(
                variable: ConfigurationKey.tlsKeyFile.environmentName, problem: .missing)
        case (let certificate?, let key?):
            do {
                let context = try TLSServerContext(certificateChainFile: certificate, keyFile: key)
                return TLSSettings(
                    certificateChainFile: certificate, keyFile: key,
                    notAfterSeconds: context.notAfterSeconds)
            } catch {
                // OpenSSL's reasons name the file and the failed check, never key bytes.
                throw ConfigurationError(
                    variable: Self.tlsVariable(at: error).environmentName,
                    problem: .invalid(
                        expected: "a PEM certificate chain and the PEM key that matches it "
                            + "(\(error))"))
            }
        }
    }

    /// The setting a load failure is about: the key file when the key did not load or
    /// does not match, otherwise the certificate file.
    private static func tlsVariable(at failure: TLSFailure) -> ConfigurationKey {
        guard case .configuration(let reason) = failure else { return .tlsCertFile }
        return reason.contains("private key") ? .tlsKeyFile : .tlsCertFile
    }
}

/// `TOKENSWAP_TLS_CERT_FILE` and `TOKENSWAP_TLS_KEY_FILE`, checked at load: both set,
/// the chain parses, the key parses and matches the leaf (CONTRACT §10).
package struct TLSSettings: Sendable, Equatable {
    /// PEM, leaf first, then intermediates.
    package let certificateChainFile: String
    /// PEM private key of the leaf.
    package let keyFile: String
    /// The leaf's notAfter when loaded (seconds since the epoch), for `check-config`.
    package let notAfterSeconds: Int64

    /// `check-config` warns when the certificate expires within this (CONTRACT §10).
    package static let expiryWarningSeconds: Int64 = 14 * 24 * 3600
}
