extension ServiceConfiguration {
    /// What is allowed but unwise, one line each, for `check-config`: never a secret.
    public var warnings: [String] {
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
