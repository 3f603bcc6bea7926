import TestSupport
import Testing
import Transport

@testable import TokenSwap

/// The proof ids one copy keeps in memory (CONTRACT §13, issue 34 item 2): a live id is
/// never dropped to make room, a full table or a client's full share (a sixteenth) is
/// refused with the seconds until the oldest id expires, expired ids free room and their
/// client's share, and which ids a client picks changes none of it.
@Suite(.resourceClass(.compute)) struct ProofIDTableTests {
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000)
    /// The default window: 60 s of `iat` age, 10 s of skew, a second more.
    static let window = Duration.seconds(71)

    static func client(_ text: String) throws -> ClientPrefix {
        ClientPrefix(try #require(IPAddress(text)), ipv6PrefixLength: 64)
    }

    static func key(_ jti: String) throws -> StateKey {
        try #require(StateKey(.proofID, scope: "spotify", value: jti))
    }

    /// `count` fresh ids of `client` (named `prefix-0`, `prefix-1`, …) recorded at `now`.
    static func record(
        _ table: inout ProofIDTable, _ count: Int, _ prefix: String, client: ClientPrefix,
        now: Deadline = start
    ) throws -> [ProofIDRecording] {
        try (0..<count).map { index in
            table.record(
                try key("\(prefix)-\(index)"), client: client,
                expiresAt: Deadline.after(window, from: now), now: now)
        }
    }

    /// The issue's attack on a table of the default size: the victim's id, then ten times
    /// a client's share of the attacker's own ids. None of them evicts the victim's: its
    /// replay is still `seenBefore`, and the attacker is refused past its share.
    @Test func aFloodingClientCannotEvictALiveID() throws {
        var table = ProofIDTable(capacity: 100_000)
        let victim = try Self.client("198.51.100.7")
        let attacker = try Self.client("203.0.113.9")
        let captured = try Self.key("captured-proof-id-0001")
        let expiresAt = Deadline.after(Self.window, from: Self.start)
        #expect(
            table.record(captured, client: victim, expiresAt: expiresAt, now: Self.start)
                == .recorded)
        let answers = try Self.record(&table, 62_500, "flood", client: attacker)
        #expect(answers.prefix(6_250).allSatisfy { $0 == .recorded })
        #expect(answers.dropFirst(6_250).allSatisfy { $0 == .noRoom(retryAfterSeconds: 71) })
        #expect(
            table.record(captured, client: attacker, expiresAt: expiresAt, now: Self.start)
                == .seenBefore)
        #expect(table.contains(captured, now: Self.start))
        #expect(table.count == 6_251)
    }

    /// At its share (1/16 of the table) a client is refused and others are not; an IPv6
    /// client is its /64, so rotating addresses inside it buys no second share.
    @Test func aClientAtItsShareIsRefusedAndOthersAreNot() throws {
        var table = ProofIDTable(capacity: 1_600)
        #expect(table.clientShare == 100)
        let rotating = try (0..<101).map { try Self.client("2001:db8:1:2::\($0 + 1)") }
        for (index, client) in rotating.enumerated() {
            let answer = try Self.record(&table, 1, "v6-\(index)", client: client)
            #expect(answer == [index < 100 ? .recorded : .noRoom(retryAfterSeconds: 71)])
        }
        #expect(table.heldCount(by: try Self.client("2001:db8:1:2:ffff::1")) == 100)
        let neighbour = try Self.client("2001:db8:1:3::1")
        #expect(
            try Self.record(&table, 100, "next", client: neighbour).allSatisfy { $0 == .recorded })
        // IPv4 and the same address mapped into IPv6 are one client.
        let v4 = try Self.client("192.0.2.1")
        #expect(v4 == (try Self.client("::ffff:192.0.2.1")))
        #expect(try Self.record(&table, 100, "v4", client: v4).allSatisfy { $0 == .recorded })
        #expect(
            try Self.record(&table, 1, "mapped", client: Self.client("::ffff:192.0.2.1"))
                == [.noRoom(retryAfterSeconds: 71)])
    }

    /// Sixteen clients at their share fill the table: the next client is refused with the
    /// seconds until the oldest id expires, which count down; a replay is still a replay.
    @Test func aFullTableRefusesWithTheTimeUntilTheOldestExpires() throws {
        var table = ProofIDTable(capacity: 160)
        for index in 0..<16 {
            let answers = try Self.record(
                &table, 10, "c\(index)", client: Self.client("192.0.2.\(index + 1)"),
                now: .after(.seconds(index), from: Self.start))
            #expect(answers.allSatisfy { $0 == .recorded })
        }
        #expect(table.count == 160)
        let late = try Self.client("198.51.100.1")
        #expect(
            try Self.record(&table, 1, "late", client: late) == [.noRoom(retryAfterSeconds: 71)])
        let later = Deadline.after(.seconds(30.5), from: Self.start)
        #expect(
            try Self.record(&table, 1, "late", client: late, now: later)
                == [.noRoom(retryAfterSeconds: 41)])
        #expect(
            table.record(
                try Self.key("c3-4"), client: late, expiresAt: .after(Self.window, from: later),
                now: later) == .seenBefore)
    }

    /// Room frees as ids age out of the window: the oldest client's ids leave first, its
    /// share with them, and a replay of an expired id is a first use again.
    @Test func expiredIDsFreeRoomAndTheirClientsShare() throws {
        var table = ProofIDTable(capacity: 160)
        let first = try Self.client("192.0.2.1")
        #expect(try Self.record(&table, 10, "first", client: first).allSatisfy { $0 == .recorded })
        for index in 1..<16 {
            _ = try Self.record(
                &table, 10, "c\(index)", client: Self.client("192.0.2.\(index + 1)"),
                now: .after(.seconds(5), from: Self.start))
        }
        let late = try Self.client("198.51.100.1")
        let justBefore = Deadline.after(.milliseconds(70_999), from: Self.start)
        #expect(
            try Self.record(&table, 1, "late", client: late, now: justBefore)
                == [.noRoom(retryAfterSeconds: 1)])
        #expect(
            try Self.record(&table, 1, "first", client: first, now: justBefore) == [.seenBefore])
        let expired = Deadline.after(Self.window, from: Self.start)
        #expect(
            try Self.record(&table, 10, "late", client: late, now: expired).allSatisfy {
                $0 == .recorded
            })
        #expect(table.heldCount(by: first) == 0)
        #expect(
            try Self.record(&table, 1, "first", client: first, now: expired) == [
                .noRoom(retryAfterSeconds: 5)
            ])
        let all = Deadline.after(.seconds(77), from: Self.start)
        #expect(try Self.record(&table, 1, "first", client: first, now: all) == [.recorded])
        #expect(!table.contains(try Self.key("c1-0"), now: all))
        #expect(table.heldCount(by: late) == 10)
    }

    /// Which ids a client sends decides nothing: ids that all shared one shard of the old
    /// table (the first eight bytes of their digest alike modulo 16) fill only their
    /// client's share, and another client's ids with the same property still fit beside
    /// them. The old table held 1,600 as 16 shards of 100, so the second 100 evicted the
    /// first.
    @Test func whereAnIDIsKeptCannotBeChosen() throws {
        var table = ProofIDTable(capacity: 1_600)
        func aimed(_ prefix: String, count: Int) throws -> [StateKey] {
            var keys: [StateKey] = []
            var index = 0
            while keys.count < count {
                let key = try Self.key("\(prefix)-\(index)")
                if key.digestPrefix % 16 == 0 { keys.append(key) }
                index += 1
            }
            return keys
        }
        let expiresAt = Deadline.after(Self.window, from: Self.start)
        let first = try aimed("a", count: 100)
        let second = try aimed("b", count: 100)
        let a = try Self.client("192.0.2.1")
        let b = try Self.client("192.0.2.2")
        for key in first {
            #expect(
                table.record(key, client: a, expiresAt: expiresAt, now: Self.start) == .recorded)
        }
        for key in second {
            #expect(
                table.record(key, client: b, expiresAt: expiresAt, now: Self.start) == .recorded)
        }
        #expect((first + second).allSatisfy { table.contains($0, now: Self.start) })
    }

    /// Whatever the churn (ids repeated, clients many and few, time passing windows), every
    /// answer is the one a plain model of live ids gives, with one window for every id as
    /// the gate's: the table's lazy drops never lose an id early nor leave a client's count
    /// behind.
    @Test func answersAsAModelOfLiveIDsThroughChurn() throws {
        var table = ProofIDTable(capacity: 64)
        var model: [StateKey: (client: Int, expiresAt: Deadline)] = [:]
        var generator = SplitMix64(seed: 34)
        let clients = try (0..<24).map { try Self.client("192.0.2.\($0 + 1)") }
        let keys = try (0..<400).map { try Self.key("churn-\($0)") }
        var now = Self.start
        for _ in 0..<20_000 {
            now = .after(.milliseconds(Int64(generator.next() % 40)), from: now)
            let window = Duration.seconds(1)
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            // A few clients send most proofs, so shares fill as often as the table does.
            let client = Int(
                generator.next() % 4 == 0 ? generator.next() % 24 : generator.next() % 3)
            model = model.filter { $0.value.expiresAt > now }
            let expected: ProofIDRecording
            if model[key] != nil {
                expected = .seenBefore
            } else if model.count >= 64 || model.values.filter({ $0.client == client }).count >= 4 {
                let oldest = try #require(model.values.map(\.expiresAt).min())
                expected = .noRoom(
                    retryAfterSeconds: max(1, Int(oldest.secondsLeft(from: now).rounded(.up))))
            } else {
                expected = .recorded
                model[key] = (client, .after(window, from: now))
            }
            let answer = table.record(
                key, client: clients[client], expiresAt: .after(window, from: now), now: now)
            #expect(answer == expected)
        }
        // Every id left ends within the window: after it, every client's count is back to 0.
        let after = Deadline.after(.seconds(2), from: now)
        _ = table.record(try Self.key("last"), client: clients[0], expiresAt: after, now: after)
        let late = try Self.record(&table, 63, "refill", client: .unknown, now: after)
        #expect(late.filter { $0 == .recorded }.count == 4)
        #expect(clients.dropFirst().allSatisfy { table.heldCount(by: $0) == 0 })
    }

    /// Numbers from outside cannot trap: a window longer than any clock holds saturates,
    /// and its Retry-After stays a small whole number.
    @Test func aHugeWindowSaturates() throws {
        var table = ProofIDTable(capacity: 16)
        let client = try Self.client("192.0.2.1")
        let never = Deadline.after(.seconds(Int64.max), from: Self.start)
        #expect(
            table.record(try Self.key("huge-0"), client: client, expiresAt: never, now: Self.start)
                == .recorded)
        guard
            case .noRoom(let seconds) = table.record(
                try Self.key("huge-1"), client: client, expiresAt: never, now: Self.start)
        else {
            Issue.record("a client past its share of one was not refused")
            return
        }
        #expect(seconds >= 1 && seconds <= 1_000_000)
    }
}
