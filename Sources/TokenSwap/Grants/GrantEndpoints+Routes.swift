import HTTPCore
import HTTPServer

extension GrantEndpoints {
    /// Every token path (CONTRACT §2, §3, §8): `/v1/swap`, `/swap`, `/v1/refresh`,
    /// `/refresh`, `/v1/token`, `/v1/revoke` (and `/v1/introspect` where it introspects)
    /// for the default provider, and the same under `/v1/<name>/` for every provider (the
    /// default included), and `/v1[/<name>]/device/code|token` for providers with a device
    /// endpoint. Paths of unconfigured names are absent, so they are 404; so are
    /// `/introspect` for a provider with introspection style `none` and the device paths
    /// of a provider without a device endpoint.
    public func routes(providers: [Provider], defaultProvider: Provider) -> [ServiceRoute] {
        typealias Awaiting =
            @Sendable (GrantEndpoints, HTTPRequest, Provider) async -> EndpointAnswer
        var routes: [ServiceRoute] = []
        func add(_ path: String, _ provider: Provider, _ handle: @escaping Awaiting) {
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: .async(.grant) { request, _ in
                        await handle(endpoints, request, provider)
                    }))
        }
        typealias Responder =
            @Sendable (
                GrantEndpoints, HTTPRequest, Provider, ServiceContext, @escaping Endpoint.Respond
            ) -> Void
        // The hot paths (swap, refresh, the token endpoint) answer by callback; the rest
        // await, each as a task on the connection's loop.
        func add(_ path: String, _ provider: Provider, responding responder: @escaping Responder) {
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: Endpoint(
                        .grant,
                        respond: { request, context, respond in
                            responder(endpoints, request, provider, context, respond)
                        })))
        }
        func addAll(prefix: String, _ provider: Provider) {
            add(
                prefix + "/swap", provider,
                responding: { $0.swap($1, provider: $2, completion: $4) })
            add(
                prefix + "/refresh", provider,
                responding: { $0.refresh($1, provider: $2, completion: $4) })
            add(
                prefix + "/token", provider,
                responding: { $0.token($1, provider: $2, context: $3, completion: $4) })
            add(prefix + "/revoke", provider) { await $0.revoke($1, provider: $2) }
            // CONTRACT §7: only providers with a device endpoint; the rest stay 404.
            if provider.device != nil {
                add(prefix + "/device/code", provider) { await $0.deviceCode($1, provider: $2) }
                add(prefix + "/device/token", provider) { await $0.deviceToken($1, provider: $2) }
            }
            if provider.lifecycle.introspects {
                add(prefix + "/introspect", provider) { await $0.introspect($1, provider: $2) }
            }
        }
        addAll(prefix: "/v1", defaultProvider)
        add("/swap", defaultProvider, responding: { $0.swap($1, provider: $2, completion: $4) })
        add(
            "/refresh", defaultProvider,
            responding: { $0.refresh($1, provider: $2, completion: $4) })
        for provider in providers { addAll(prefix: "/v1/\(provider.name)", provider) }
        return routes
    }
}
