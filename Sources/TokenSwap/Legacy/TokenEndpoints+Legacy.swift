import Sealing

extension TokenEndpoints {
    /// A refresh token the key ring cannot open, tried against the provider's legacy
    /// formats in the configured order (CONTRACT §9). Not sealed with the active key, so
    /// the refresh answer reseals it natively and the client moves over on its own.
    func openLegacy(_ token: String, for provider: Provider) -> OpenedToken? {
        guard !provider.legacyDecoders.isEmpty else { return nil }
        let shape = RefreshTokenShape(provider.preset)
        for decoder in provider.legacyDecoders {
            guard let plaintext = decoder.open(token, shape: shape) else { continue }
            metrics.legacyOpened(provider: provider.name, format: decoder.format)
            return OpenedToken(
                plaintext: plaintext, keyID: "legacy-\(decoder.format.rawValue)",
                sealedWithActiveKey: false)
        }
        return nil
    }
}
