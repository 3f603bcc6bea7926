import Testing

@testable import TokenSwap

@Suite struct ConfigurationKeyTests {
    @Test(arguments: [
        (["port"], "TOKENSWAP_PORT", "port"),
        (
            ["upstream_timeout_seconds"], "TOKENSWAP_UPSTREAM_TIMEOUT_SECONDS",
            "upstream_timeout_seconds"
        ),
        (["acme", "client_id"], "TOKENSWAP_ACME_CLIENT_ID", "acme.client_id"),
        (["my-app", "redirect_uris"], "TOKENSWAP_MY_APP_REDIRECT_URIS", "my-app.redirect_uris"),
    ])
    func namesInBothSources(components: [String], environment: String, file: String) {
        let key = ConfigurationKey(components: components)
        #expect(key.environmentName == environment)
        #expect(key.filePath == file)
    }
}
