import HTTPCore

/// The RFC 8414 document of one provider (CONTRACT §8), served at
/// `/.well-known/oauth-authorization-server/v1/<name>` (§3.1: the well-known segment is
/// inserted before the issuer's path). An app pointed at the issuer alone finds every
/// endpoint here; endpoints the provider does not support are left out.
package enum AuthorizationServerMetadata {
    /// The path the document for `provider` is served at.
    package static func path(for provider: Provider) -> String {
        "/.well-known/oauth-authorization-server/v1/\(provider.name)"
    }

    /// - Parameters:
    ///   - publicURL: `TOKENSWAP_PUBLIC_URL`, without a trailing `/`.
    ///   - sandbox: with `--sandbox` and no `_AUTHORIZE_URL`, the sandbox's own authorize
    ///     endpoint stands in for the provider's.
    ///   - dpop: the provider's `TOKENSWAP_<NAME>_DPOP` is not `off`: RFC 9449 §5.1's
    ///     `dpop_signing_alg_values_supported` lists ES256, the one algorithm accepted
    ///     (CONTRACT §13).
    package static func document(
        for provider: Provider, publicURL: String, sandbox: Bool, dpop: Bool = false
    ) -> JSONValue {
        let issuer = "\(publicURL)/v1/\(provider.name)"
        var members: [JSONValue.Member] = [.init("issuer", .string(issuer))]
        let authorize =
            provider.lifecycle.authorizeURL ?? (sandbox ? publicURL + "/sandbox/authorize" : nil)
        if let authorize { members.append(.init("authorization_endpoint", .string(authorize))) }
        members.append(.init("token_endpoint", .string(issuer + "/token")))
        if provider.device != nil {
            members.append(.init("device_authorization_endpoint", .string(issuer + "/device/code")))
        }
        if provider.lifecycle.revokes {
            members.append(.init("revocation_endpoint", .string(issuer + "/revoke")))
        }
        if provider.lifecycle.introspects {
            members.append(.init("introspection_endpoint", .string(issuer + "/introspect")))
        }
        var grants = [TokenGrant.authorizationCodeType, TokenGrant.refreshTokenType]
        if provider.device != nil { grants.append(ProviderDialect.deviceGrantType) }
        members += [
            .init("grant_types_supported", .array(grants.map { .string($0) })),
            .init("response_types_supported", .array([.string("code")])),
            .init("code_challenge_methods_supported", .array([.string("S256")])),
            // The app is a public client of tokenswap: the secret stays on the server.
            .init("token_endpoint_auth_methods_supported", .array([.string("none")])),
        ]
        if dpop {
            members.append(
                .init(
                    "dpop_signing_alg_values_supported",
                    .array([.string(DPoPProofChecker.algorithm)])))
        }
        return .object(members)
    }
}
