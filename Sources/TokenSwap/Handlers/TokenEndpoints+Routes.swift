import HTTPServer

extension TokenEndpoints {
    /// Every token path (CONTRACT §2–3): `/v1/swap`, `/swap`, `/v1/refresh`, `/refresh`
    /// for the default provider, and `/v1/<name>/swap|refresh` for every provider
    /// (the default included), and `/v1[/<name>]/device/code|token` for providers with a
    /// device endpoint. Paths of unconfigured names are absent, so they are 404.
    public func routes(providers: [Provider], defaultProvider: Provider) -> [ServiceRoute] {
        var routes: [ServiceRoute] = []
        func add(_ path: String, _ provider: Provider, swap: Bool) {
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, path,
                    handler: Endpoint(.token) { request, _ in
                        swap
                            ? await endpoints.swap(request, provider: provider)
                            : await endpoints.refresh(request, provider: provider)
                    }))
        }
        for path in ["/v1/swap", "/swap"] { add(path, defaultProvider, swap: true) }
        for path in ["/v1/refresh", "/refresh"] { add(path, defaultProvider, swap: false) }
        for provider in providers {
            add("/v1/\(provider.name)/swap", provider, swap: true)
            add("/v1/\(provider.name)/refresh", provider, swap: false)
        }
        // CONTRACT §7: only providers with a device endpoint; the rest stay 404.
        func addDevice(_ prefix: String, _ provider: Provider) {
            guard provider.device != nil else { return }
            let endpoints = self
            routes.append(
                ServiceRoute(
                    .post, prefix + "/device/code",
                    handler: Endpoint(.token) { request, _ in
                        await endpoints.deviceCode(request, provider: provider)
                    }))
            routes.append(
                ServiceRoute(
                    .post, prefix + "/device/token",
                    handler: Endpoint(.token) { request, _ in
                        await endpoints.deviceToken(request, provider: provider)
                    }))
        }
        addDevice("/v1", defaultProvider)
        for provider in providers { addDevice("/v1/\(provider.name)", provider) }
        return routes
    }
}
