import RESPClient
import Testing

@testable import TokenSwap

/// What `RedisStateStore` accepts from its scripts and commands: each expected reply, and
/// every other shape (a wrong type, a word the script never says, a number out of range)
/// a `StateStoreError` naming the operation, never a crash and never the reply's bytes.
@Suite struct RedisStateStoreReplyTests {
    typealias S = RedisStateStore
    static func bulk(_ text: String) -> RESPValue { .bulkString(Array(text.utf8)) }

    @Test func claimRepliesAreRead() throws {
        #expect(
            try S.refreshClaim(.array([Self.bulk("claimed")]), operation: "claim").get() == .claimed
        )
        #expect(
            try S.refreshClaim(.array([Self.bulk("in_flight")]), operation: "claim").get()
                == .inFlight)
        let kept = try S.refreshClaim(
            .array([Self.bulk("kept"), .bulkString([0, 1, 2]), .integer(1500)]), operation: "claim"
        ).get()
        #expect(kept == .kept(answer: [0, 1, 2], age: .milliseconds(1500)))
    }

    @Test(arguments: [
        RESPValue.simpleString("OK"), .integer(1), .array(nil), .array([]), .bulkString(nil),
        .array([.bulkString(Array("claimed".utf8)), .integer(1)]),
        .array([.bulkString(Array("stolen".utf8))]),
        .array([.bulkString(Array("kept".utf8)), .bulkString([]), .integer(1)]),
        .array([.bulkString(Array("kept".utf8)), .bulkString([1]), .integer(-1)]),
        .array([.bulkString(Array("kept".utf8)), .integer(1), .integer(1)]),
    ])
    func anyOtherClaimReplyIsAnError(_ reply: RESPValue) {
        guard case .failure(let error) = S.refreshClaim(reply, operation: "claim") else {
            Issue.record("accepted \(reply)")
            return
        }
        #expect(error.operation == "claim")
        #expect(error.reason == "unexpected reply")
    }

    @Test func bucketRepliesAreReadAndOutOfRangeOnesRefused() throws {
        #expect(try S.rateDecision(.array([.integer(1)])).get() == .allowed)
        #expect(
            try S.rateDecision(.array([.integer(0), .integer(7)])).get()
                == .limited(retryAfterSeconds: 7))
        for bad: RESPValue in [
            .array([.integer(0), .integer(0)]), .array([.integer(0), .integer(86_401)]),
            .array([.integer(0), .integer(Int64.min)]), .array([.integer(2)]), .integer(1),
            .array([.integer(0)]), .array([.integer(1), .integer(1), .integer(1)]),
        ] {
            #expect(throws: StateStoreError.self) { try S.rateDecision(bad).get() }
        }
    }

    @Test func pollRepliesStayInsideAnHour() throws {
        #expect(try S.pollDecision(.array([.integer(0), .integer(5)])).get() == .poll(interval: 5))
        #expect(
            try S.pollDecision(.array([.integer(1), .integer(3600)])).get()
                == .slowDown(interval: 3600))
        for bad: RESPValue in [
            .array([.integer(0), .integer(0)]), .array([.integer(1), .integer(3601)]),
            .array([.integer(2), .integer(5)]), .array([.integer(0), .integer(Int64.max)]),
            .array([Self.bulk("0"), .integer(5)]), .simpleString("OK"),
        ] {
            #expect(throws: StateStoreError.self) { try S.pollDecision(bad).get() }
        }
        #expect(try S.slowedInterval(-1).get() == nil)
        #expect(try S.slowedInterval(10).get() == 10)
        #expect(throws: StateStoreError.self) { try S.slowedInterval(-2).get() }
        #expect(throws: StateStoreError.self) { try S.slowedInterval(3601).get() }
    }

    @Test func insertsAndGenerationsAreRead() throws {
        #expect(try S.inserted(.simpleString("OK")).get() == true)
        #expect(try S.inserted(.bulkString(nil)).get() == false)
        #expect(throws: StateStoreError.self) { try S.inserted(.integer(1)).get() }
        #expect(try S.generation(Self.bulk("0")).get() == 0)
        #expect(try S.generation(Self.bulk("18446744073709551615")).get() == UInt64.max)
        for bad: RESPValue in [
            Self.bulk("18446744073709551616"), Self.bulk("-1"), Self.bulk(""), Self.bulk("1e3"),
            Self.bulk(" 1"), .integer(5), .bulkString(nil),
        ] {
            #expect(throws: StateStoreError.self) { try S.generation(bad).get() }
        }
    }

    @Test func durationsBecomeWholeMillisecondsSaturatingAtAYear() {
        #expect(S.milliseconds(.milliseconds(1500)) == Array("1500".utf8))
        #expect(S.milliseconds(.zero, atLeast: 1) == Array("1".utf8))
        #expect(S.milliseconds(.seconds(-5)) == Array("0".utf8))
        #expect(S.milliseconds(.seconds(Int64.max)) == Array(String(365 * 86_400 * 1000).utf8))
    }

    @Test func aRateThatIsNotAPositiveNumberRefillsNothing() {
        #expect(
            S.bucketArguments(BucketLimit(ratePerSecond: .nan, burst: 1), "take")[0]
                == Array("0.0".utf8))
        #expect(
            S.bucketArguments(BucketLimit(ratePerSecond: -1, burst: 1), "take")[0]
                == Array("0.0".utf8))
        #expect(
            S.bucketArguments(BucketLimit(ratePerSecond: 2, burst: 3), "take")[0]
                == Array("0.002".utf8))
    }
}
