import Foundation
import TestSupport
import Testing

/// A provider answer delimited by the connection's close (RFC 9112 §6.3) is whole over
/// plain HTTP, but over TLS a TCP end of file without close_notify may be a cut
/// (RFC 8446 §6.1): the swap is then 502 upstream_error, never tokens from a truncated
/// body.
@Suite(.resourceClass(.processes)) struct UpstreamTruncationTests {
    static let tokens =
        #"{"access_token":"a-trunc","token_type":"Bearer","expires_in":60,"refresh_token":"r-trunc"}"#

    @Test(arguments: [false, true])
    func closeDelimitedProviderAnswer(tls: Bool) async throws {
        let pki = try await offPool { TestPKI.shared }
        let stack = try await StubStack.start(
            tls: tls, extra: tls ? ["TOKENSWAP_CA_FILE": pki.caFile] : [:])
        try await stack.stub.answer(body: Self.tokens, mode: "close-delimited")
        let swap = try await Exchange.form("/v1/swap", port: stack.port, [("code", "code-trunc")])
        if tls {
            #expect(swap.status == 502, "\(swap)")
            #expect(swap.error == "upstream_error")
        } else {
            #expect(swap.status == 200, "\(swap)")
        }
        #expect(
            try await stack.finish(secrets: ["code-trunc", "a-trunc", "r-trunc"]) == 0)
    }
}
