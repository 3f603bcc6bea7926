import HTTPCore
import HTTPServer

extension TokenSwapServer {
    /// `GET /.well-known/oauth-authorization-server/v1/<name>` for every provider, only
    /// when `TOKENSWAP_PUBLIC_URL` is set (the issuer must be the URL apps use, which the
    /// service cannot guess); otherwise absent, so 404.
    static func discoveryRoutes(_ configuration: ServiceConfiguration) -> [ServiceRoute] {
        guard let publicURL = configuration.publicURL else { return [] }
        return configuration.providers.map { provider in
            let body = AuthorizationServerMetadata.document(
                for: provider, publicURL: publicURL, sandbox: configuration.sandbox,
                dpop: provider.dpopMode != .off
            ).serialized
            let response = HTTPResponse(
                status: .ok,
                headers: HTTPHeaders([
                    ("Content-Type", "application/json"),
                    // The same for every caller and until the configuration changes.
                    ("Cache-Control", "public, max-age=3600"),
                ]),
                body: body)
            return ServiceRoute(
                .get, AuthorizationServerMetadata.path(for: provider),
                handler: .async(.discovery) { _, _ in EndpointAnswer(response) })
        }
    }
}
