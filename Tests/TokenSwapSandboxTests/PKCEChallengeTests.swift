import Testing

@testable import TokenSwap
@testable import TokenSwapSandbox

@Suite struct PKCEChallengeTests {
    /// RFC 7636 Appendix B.
    @Test func s256MatchesTheRFCExample() throws {
        let challenge = try #require(
            PKCEChallenge(challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", method: "S256"))
        #expect(challenge.isSatisfied(by: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(!challenge.isSatisfied(by: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl"))
        #expect(!challenge.isSatisfied(by: nil))
    }

    @Test func plainIsTheDefaultMethod() throws {
        let verifier = String(repeating: "a", count: 43)
        let challenge = try #require(PKCEChallenge(challenge: verifier, method: nil))
        #expect(challenge.method == .plain)
        #expect(challenge.isSatisfied(by: verifier))
    }

    @Test(arguments: [
        (String(repeating: "a", count: 42), "S256"), (String(repeating: "a", count: 129), "S256"),
        (String(repeating: "a", count: 42) + "+", "S256"),
        (String(repeating: "a", count: 43), "S512"),
    ])
    func refusesBadChallenges(challenge: String, method: String) {
        #expect(PKCEChallenge(challenge: challenge, method: method) == nil)
    }
}
