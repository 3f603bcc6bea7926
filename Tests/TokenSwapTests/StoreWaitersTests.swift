import Synchronization
import Testing
import Transport

@testable import TokenSwap

/// `StoreWaiters`, the bookkeeping behind `RedisStateStore.awaitAnswer` (CONTRACT §12): the
/// requests of one copy waiting on one key share one poller that looks once a pause, so a
/// waiting request costs the store at most 10 commands a second; both the waiters of a key
/// and the keys waited on are bounded; each waiter is answered once, at its own deadline
/// at the latest. Driven by hand: the steps it asks for (looks, timers) are played on a
/// clock the test moves.
@Suite struct StoreWaitersTests {
    static let pause = Duration.milliseconds(100)
    static let start = Deadline(uptimeNanoseconds: 1_000_000_000_000)

    static func key(_ value: String) throws -> StateKey {
        try #require(StateKey(.refresh, value: value))
    }

    /// What each waiter was answered, by its number.
    final class Answers: Sendable {
        private let answers = Mutex<[Int: [Result<RefreshClaim, StateStoreError>]]>([:])

        func waiter(_ number: Int, deadline: Deadline = .never) -> StoreWaiters.Waiter {
            StoreWaiters.Waiter(deadline: deadline, inFlightFor: .seconds(12)) { result in
                self.answers.withLock { $0[number, default: []].append(result) }
            }
        }

        subscript(_ number: Int) -> [Result<RefreshClaim, StateStoreError>] {
            answers.withLock { $0[number] ?? [] }
        }

        var answeredCount: Int { answers.withLock { $0.count } }
    }

    static func waiters(perKey: Int = 256, keys: Int = 1024) -> StoreWaiters {
        StoreWaiters(maxWaitersPerKey: perKey, maxKeys: keys, pause: pause)
    }

    @Test func theWaitersOfOneKeyAndTheKeysWaitedOnAreBounded() throws {
        let waiters = Self.waiters(perKey: 2, keys: 2)
        let answers = Answers()
        let (a, b, c) = (try Self.key("A"), try Self.key("B"), try Self.key("C"))
        for number in 0..<3 {
            waiters.enroll(answers.waiter(number), on: a, now: Self.start).answer()
        }
        #expect(answers[0].isEmpty && answers[1].isEmpty)
        #expect(try answers[2].map { try $0.get() } == [.waitersFull])
        #expect(waiters.waiterCount(a) == 2)
        waiters.enroll(answers.waiter(3), on: b, now: Self.start).answer()
        waiters.enroll(answers.waiter(4), on: c, now: Self.start).answer()
        #expect(answers[3].isEmpty)
        #expect(try answers[4].map { try $0.get() } == [.waitersFull])
        #expect(waiters.keyCount == 2)
    }

    /// 256 waiters on one key over a second of a refresh that stays in flight: the poller
    /// looks once a pause (10 looks, the claim being the first), and nobody is answered.
    @Test func allTheWaitersOfAKeyShareOneLookAPause() throws {
        let waiters = Self.waiters()
        let answers = Answers()
        let key = try Self.key("T")
        var timer: (id: UInt64, number: UInt64, at: Deadline)?
        for number in 0..<256 {
            let steps = waiters.enroll(answers.waiter(number), on: key, now: Self.start)
            #expect(steps.look == nil)
            if number == 0 { timer = steps.timer } else { #expect(steps.timer == nil) }
        }
        var looks = 0
        let end = Deadline.after(.seconds(1), from: Self.start)
        while let pending = timer, pending.at < end {
            #expect(pending.at >= .after(Self.pause * looks + Self.pause, from: Self.start))
            let fired = waiters.timerFired(
                key, id: pending.id, number: pending.number, now: pending.at)
            let look = try #require(fired.look)
            looks += 1
            let answered = waiters.looked(key, id: look.id, .success(.inFlight), now: pending.at)
            #expect(answered.answers.isEmpty)
            timer = answered.timer
        }
        #expect(looks == 9)  // and the requests' own claim at the start: 10 in the second
        #expect(answers.answeredCount == 0)
        #expect(waiters.waiterCount(key) == 256)
    }

    @Test func aSettleOfThisCopyAnswersEveryWaiterAtOnceAndALaterLookIsVoid() throws {
        let waiters = Self.waiters()
        let answers = Answers()
        let key = try Self.key("S")
        let first = waiters.enroll(answers.waiter(0), on: key, now: Self.start)
        waiters.enroll(answers.waiter(1), on: key, now: Self.start).answer()
        let timer = try #require(first.timer)
        let look = try #require(
            waiters.timerFired(key, id: timer.id, number: timer.number, now: timer.at).look)
        waiters.settled(key, answer: [7, 7]).answer()
        for number in 0..<2 {
            #expect(
                try answers[number].map { try $0.get() } == [.kept(answer: [7, 7], age: .zero)])
        }
        #expect(waiters.keyCount == 0)
        // The look sent before the settle: a claim it took belongs to nobody, and is freed.
        let late = waiters.looked(key, id: look.id, .success(.claimed), now: timer.at)
        #expect(late.release)
        #expect(late.answers.isEmpty)
        #expect(answers[0].count == 1)
    }

    @Test func aFreedKeyGoesToTheOldestWaiterAndTheOthersWaitOn() throws {
        let waiters = Self.waiters()
        let answers = Answers()
        let key = try Self.key("F")
        let first = waiters.enroll(answers.waiter(0), on: key, now: Self.start)
        for number in 1..<3 {
            waiters.enroll(answers.waiter(number), on: key, now: Self.start).answer()
        }
        let timer = try #require(first.timer)
        let look = try #require(
            waiters.timerFired(key, id: timer.id, number: timer.number, now: timer.at).look)
        let steps = waiters.looked(key, id: look.id, .success(.claimed), now: timer.at)
        steps.answer()
        #expect(try answers[0].map { try $0.get() } == [.claimed])
        #expect(answers[1].isEmpty && answers[2].isEmpty)
        #expect(steps.timer != nil)
        #expect(waiters.waiterCount(key) == 2)
        // A store failure goes to every waiter left.
        let again = try #require(steps.timer)
        let second = try #require(
            waiters.timerFired(key, id: again.id, number: again.number, now: again.at).look)
        let failure = StateStoreError(operation: "await_answer", reason: "reset")
        waiters.looked(key, id: second.id, .failure(failure), now: again.at).answer()
        #expect(answers[1].count == 1 && answers[2].count == 1)
        #expect(waiters.keyCount == 0)
    }

    /// A waiter whose deadline comes before the next look is answered `.inFlight` then,
    /// without a look; the others keep their pace.
    @Test func eachWaiterIsAnsweredAtItsOwnDeadline() throws {
        let waiters = Self.waiters()
        let answers = Answers()
        let key = try Self.key("D")
        let soon = Deadline.after(.milliseconds(30), from: Self.start)
        let first = waiters.enroll(answers.waiter(0), on: key, now: Self.start)
        let moved = waiters.enroll(answers.waiter(1, deadline: soon), on: key, now: Self.start)
        let timer = try #require(moved.timer)
        #expect(timer.at == soon)
        // The first timer is void once moved.
        let void = try #require(first.timer)
        #expect(waiters.timerFired(key, id: void.id, number: void.number, now: void.at).look == nil)
        let fired = waiters.timerFired(key, id: timer.id, number: timer.number, now: soon)
        fired.answer()
        #expect(fired.look == nil)
        #expect(try answers[1].map { try $0.get() } == [.inFlight])
        #expect(answers[0].isEmpty)
        let next = try #require(fired.timer)
        #expect(next.at == .after(Self.pause, from: Self.start))
    }
}
