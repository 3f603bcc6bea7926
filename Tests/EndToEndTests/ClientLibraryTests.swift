import Foundation
import TestSupport
import Testing

/// Real OAuth client libraries (authlib's and requests-oauthlib's `OAuth2Session`, from
/// PyPI, installed by .ci/run in a venv: `TOKENSWAP_TEST_PYTHON`) against `tokenswap serve --sandbox`: discovery from the
/// RFC 8414 document, the authorization-code flow with PKCE through `/v1/<name>/token`,
/// refresh, introspection and revocation (Fixtures/client_libraries.py; one line per
/// check, never a token). A missing library fails the test: CI must run it.
@Suite(.serialized, .resourceClass(.processes)) struct ClientLibraryTests {
    @Test func authlibAndRequestsOAuthlibRunTheWholeLifecycle() async throws {
        let binary = try TokenSwapBinary.url()
        // .ci/run installs the libraries in a venv and names its interpreter here.
        let python = ProcessInfo.processInfo.environment["TOKENSWAP_TEST_PYTHON"] ?? "python3"
        let result = try await offPool {
            try ChildProcess.run(
                python, [Fixture.path("client_libraries.py"), binary.path], timeoutSeconds: 120)
        }
        let passed: Bool
        if case .exited(0) = result.status { passed = true } else { passed = false }
        #expect(passed, "client_libraries.py:\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\nok   authlib: a revoked refresh token is refused\n"))
        #expect(
            result.stdout.contains("\nok   requests-oauthlib: a revoked refresh token is refused\n")
        )
    }
}
