import HTTPCore
import Sealing

extension TokenEndpoints {
    /// `POST /v1/refresh`: a sealed refresh token for a new access token (RFC 6749 §6).
    /// A token that does not open is `invalid_grant` without calling the provider. The
    /// answer always carries a refresh token: the rotated one sealed, or else the
    /// client's own (resealed under the active key if an older key opened it, so old
    /// keys drain away; otherwise byte-for-byte what the client sent).
    ///
    /// Answers by callback (`Endpoint.Responder`): the hot path of the service, it runs
    /// without a task when the provider call exchanges in place.
    public func refresh(
        _ request: HTTPRequest, provider: Provider,
        completion: @escaping @Sendable (EndpointAnswer) -> Void
    ) {
        let finish = Self.answering(provider: provider, grant: "refresh_token", completion)
        let sealed: String
        let opened: OpenedToken
        let legacyFormat: LegacyFormat?
        let raw: String
        do throws(TokenEndpointError) {
            let fields = try TokenRequestFields.decode(request)
            guard let value = fields["refresh_token"] else {
                throw .invalidRequest("refresh_token is missing")
            }
            sealed = value
            (opened, legacyFormat) = try openRefreshToken(sealed, for: provider, from: request)
            guard let text = opened.plaintextString else {
                metrics.sealingFailed(.open, reason: "not_utf8")
                throw .unopenableToken
            }
            raw = text
        } catch {
            return finish(.failure(error))
        }
        let sealedWithActiveKey = opened.sealedWithActiveKey
        let interpret: @Sendable (HTTPResponse) throws(TokenEndpointError) -> ProviderTokenResponse
        if legacyFormat == nil {
            interpret = { (answer) throws(TokenEndpointError) in
                try provider.dialect.interpretToken(answer)
            }
        } else {
            interpret = { (answer) throws(TokenEndpointError) in
                try Self.interpretLegacyRefresh(answer, provider: provider)
            }
        }
        exchange(.refreshToken(raw), with: provider, interpret: interpret) { [self] exchanged in
            let result = Result { () throws(TokenEndpointError) in
                let tokens = try exchanged.get()
                let answer: String
                if let rotated = tokens.refreshToken, rotated != raw {
                    answer = try seal(rotated, for: provider)
                } else if sealedWithActiveKey {
                    answer = sealed
                } else {
                    answer = try seal(raw, for: provider)
                }
                return Self.success(tokens, refreshToken: answer)
            }
            guard let legacyFormat else { return finish(result) }
            finish(
                settledLegacyRefresh(
                    result, format: legacyFormat, provider: provider, request: request))
        }
    }

    /// `refresh`, awaited.
    public func refresh(_ request: HTTPRequest, provider: Provider) async -> EndpointAnswer {
        await Self.awaiting { refresh(request, provider: provider, completion: $0) }
    }

    /// Opens a sealed value of `kind` for this provider and client with the key ring;
    /// any other kind, provider or client does not open (CONTRACT §4, §7). Never a legacy
    /// decoder: those are for refresh tokens only (`openRefreshToken`, CONTRACT §9).
    func open(_ sealed: String, for provider: Provider, kind: SealedKind = .refreshToken)
        throws(TokenEndpointError) -> OpenedToken
    {
        guard let opened = try openNatively(sealed, for: provider, kind: kind) else {
            // One bucket on purpose: the key ring does not say which check failed, so a
            // client probing the format learns nothing, from answers or from metrics.
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw kind == .deviceCode ? .unopenableDeviceCode : .unopenableToken
        }
        return opened
    }

    /// A refresh request's token: natively, else by the provider's legacy decoders
    /// (CONTRACT §9), with the format that opened it (nil: the key ring did).
    func openRefreshToken(_ sealed: String, for provider: Provider, from request: HTTPRequest)
        throws(TokenEndpointError) -> (opened: OpenedToken, legacy: LegacyFormat?)
    {
        if let opened = try openNatively(sealed, for: provider, kind: .refreshToken) {
            return (opened, nil)
        }
        guard !provider.legacyDecoders.isEmpty else {
            metrics.sealingFailed(.open, reason: "invalid_token")
            throw .unopenableToken
        }
        let (opened, format) = try openLegacyRefreshToken(sealed, for: provider, from: request)
        return (opened, format)
    }

    /// The key ring's opening; nil when the value does not open (counted by the caller).
    private func openNatively(_ sealed: String, for provider: Provider, kind: SealedKind)
        throws(TokenEndpointError) -> OpenedToken?
    {
        do {
            let opened = try keyRing.open(sealed, context: Self.context(provider, kind: kind))
            metrics.opened(keyID: opened.keyID)
            return opened
        } catch .invalidToken {
            return nil
        } catch {
            metrics.sealingFailed(.open, reason: "crypto_unavailable")
            throw .temporarilyUnavailable(reason: "opening failed: \(error)")
        }
    }
}
