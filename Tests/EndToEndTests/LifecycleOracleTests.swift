import Foundation
import Testing

/// CONTRACT §8: revoke and introspect do not tell whether a sealed token opens. For every
/// provider style, a genuine sealed refresh token, the same token tampered with, and a
/// random value of the same length, each sent once through the binary against a stub
/// that answers them alike, must get the same status, headers (but `Date` and the request
/// id), body, number of upstream calls and `/metrics` counter deltas. Before, GitHub- and
/// L2P-style revocation answered `Tokenswap-Revocation: unsupported` for one kind and
/// `forwarded` for the other, token-info styles called the provider for one and not the
/// other, and `tokenswap_sealed_token_opens_total` counted the genuine one.
@Suite(.serialized, .resourceClass(.processes)) struct LifecycleOracleTests {
    /// One endpoint in one style, and the stub answer every token gets.
    struct Case: Sendable, CustomStringConvertible {
        let endpoint: String
        let style: String
        let status: Int
        let body: String
        var description: String { "\(endpoint) \(style)" }
    }

    static let revocations = [
        Case(endpoint: "revoke", style: "rfc7009", status: 200, body: ""),
        Case(endpoint: "revoke", style: "google", status: 200, body: "{}"),
        Case(endpoint: "revoke", style: "github", status: 404, body: #"{"message":"Not Found"}"#),
        Case(
            endpoint: "revoke", style: "l2p", status: 200,
            body: #"{"status":"error: refresh token invalid."}"#),
        Case(endpoint: "revoke", style: "none", status: 200, body: ""),
    ]

    static let introspections = [
        Case(endpoint: "introspect", style: "rfc7662", status: 200, body: #"{"active":false}"#),
        Case(
            endpoint: "introspect", style: "google", status: 400,
            body: #"{"error":"invalid_token"}"#),
        Case(endpoint: "introspect", style: "github", status: 404, body: "{}"),
        Case(endpoint: "introspect", style: "linkedin", status: 200, body: #"{"active":false}"#),
        Case(
            endpoint: "introspect", style: "l2p", status: 200,
            body: #"{"status":"ok","state":"invalid"}"#),
    ]

    /// What one request showed an observer.
    struct Observation: Equatable, CustomStringConvertible {
        let status: Int
        let headers: [String]
        let body: String
        let upstreamCalls: Int
        let counterDeltas: [String: Double]
        var description: String {
            "\(status) \(headers) \(body) calls \(upstreamCalls) \(counterDeltas)"
        }
    }

    @Test(arguments: revocations + introspections)
    func genuineTamperedAndRandomTokensLookAlike(_ row: Case) async throws {
        let stub = try await ProviderStub.start()
        let variable = row.endpoint == "revoke" ? "REVOCATION" : "INTROSPECTION"
        var extra = ["TOKENSWAP_SPOTIFY_\(variable)_STYLE": row.style]
        if row.style != "none" {
            extra["TOKENSWAP_SPOTIFY_\(variable)_URL"] = stub.tokenURL("/lifecycle")
        }
        let stack = try await StubStack.start(stub: stub, extra: extra)
        let raw = "rt-raw-oracle-" + Deployment.random(12)
        let genuine = try await RevocationTests.sealedRefreshToken(stack, raw: raw)
        try await stub.answer(status: row.status, body: row.body, path: "/lifecycle")

        var observations: [Observation] = []
        for token in [genuine, Self.tampered(genuine), Self.random(like: genuine)] {
            observations.append(try await Self.observe(row, token: token, stack: stack))
        }
        let first = try #require(observations.first)
        for (kind, seen) in zip(["tampered", "random"], observations.dropFirst()) {
            #expect(seen == first, "\(row): \(kind) \(seen) vs genuine \(first)")
        }
        #expect(first.status == 200)
        #expect(first.upstreamCalls == (row.style == "none" ? 0 : 1))
        if row.endpoint == "revoke" {
            let disposition = row.style == "none" ? "broker" : "forwarded"
            #expect(first.headers.contains("tokenswap-revocation: \(disposition)"))
        }
        #expect(!first.counterDeltas.keys.contains { $0.hasPrefix("tokenswap_sealed_token_opens") })
        #expect(try await stack.finish(secrets: [raw, genuine]) == 0)
    }

    static func observe(_ row: Case, token: String, stack: StubStack) async throws -> Observation {
        let before = try await counters(stack.port)
        let calls = try await stack.stub.received().count
        let answer = try await Exchange.form(
            "/v1/spotify/\(row.endpoint)", port: stack.port, [("token", token)])
        let after = try await counters(stack.port)
        var deltas: [String: Double] = [:]
        for (series, value) in after where value != before[series, default: 0] {
            deltas[series] = value - before[series, default: 0]
        }
        return Observation(
            status: answer.status,
            headers: answer.headers.filter {
                !["date", "x-request-id"].contains($0.name.lowercased())
            }
            .map { "\($0.name.lowercased()): \($0.value)" },
            body: answer.body, upstreamCalls: try await stack.stub.received().count - calls,
            counterDeltas: deltas)
    }

    /// Every counter sample (`…_total`) on `/metrics`, by series.
    static func counters(_ port: UInt16) async throws -> [String: Double] {
        let text = try await Exchange.request("GET", "/metrics", port: port).body
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), line.contains("_total"),
                let value = Double(line[line.index(after: space)...])
            else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// The token with one character in the middle changed: still base64url, same length.
    static func tampered(_ token: String) -> String {
        var characters = Array(token)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        return String(characters)
    }

    /// A base64url value as long as `token`.
    static func random(like token: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String(token.map { _ in alphabet.randomElement(using: &generator) ?? "A" })
    }
}
