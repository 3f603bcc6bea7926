import Transport

extension ServiceConfiguration {
    /// What is allowed but unwise, one line each, for `check-config`: never a secret.
    package var warnings: [String] {
        legacySecretWarnings + legacyCTRWarnings + tlsExpiryWarnings(now: WallClock.system.now())
            + secretFiles.compactMap(\.warning)
    }

    /// CONTRACT §10: a certificate that expires within 14 days (or has expired).
    func tlsExpiryWarnings(now: Int64) -> [String] {
        guard let tls, tls.notAfterSeconds - now < TLSSettings.expiryWarningSeconds else {
            return []
        }
        let variable = ConfigurationKey.tlsCertFile.environmentName
        let days = (tls.notAfterSeconds - now) / 86_400
        if tls.notAfterSeconds <= now {
            return ["\(variable): the certificate has expired; clients will refuse it"]
        }
        return [
            "\(variable): the certificate expires in \(days) day(s); renew it (a new pair is "
                + "picked up on SIGHUP or when the files change)"
        ]
    }

    /// CONTRACT §9: `node-create-cipher-ctr` encrypts every token with one keystream, so
    /// anyone who can tell an accepted plaintext from a refused one can recover it.
    private var legacyCTRWarnings: [String] {
        providers.compactMap { provider in
            guard provider.legacyDecoders.contains(where: { $0.format == .nodeCreateCipherCTR })
            else { return nil }
            let variable = ConfigurationKey.provider(provider.name, .legacy).environmentName
            return "\(variable): node-create-cipher-ctr uses one fixed keystream for every "
                + "token: its tokens are malleable, and anyone who can probe the service can "
                + "decrypt them. Migrate the clients and remove it soon (docs/migration.md)."
        }
    }

    private var legacySecretWarnings: [String] {
        providers.flatMap { provider in
            provider.legacyDecoders.filter(\.usesPublishedSecret).map { decoder in
                let variable = ConfigurationKey.provider(provider.name, .legacy).environmentName
                return "\(variable): the \(decoder.format.rawValue) secret is the one Spotify's "
                    + "spotify_token_swap.rb example published; anyone can open those tokens. "
                    + "Keep it only until the clients have moved (docs/migration.md)."
            }
        }
    }
}
