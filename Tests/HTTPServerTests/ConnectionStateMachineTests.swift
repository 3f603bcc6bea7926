import Testing
import Transport

@testable import HTTPServer

/// The connection's decisions on a fake clock: every event, deadline and drain case as a
/// table, no sockets and no sleeps (the real-time tests in ConnectionDeadlineTests and
/// DrainTests check that the shell carries them out).
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    static func timing(maxRequests: Int = 1000) -> Machine.Timing {
        var configuration = ServerConfiguration()
        configuration.headerTimeoutSeconds = 10
        configuration.bodyTimeoutSeconds = 20
        configuration.idleTimeoutSeconds = 30
        configuration.writeTimeoutSeconds = 40
        configuration.lingerSeconds = 2
        configuration.maxRequestsPerConnection = maxRequests
        return Machine.Timing(configuration)
    }

    /// Seconds after the fake epoch.
    static func at(_ seconds: Double) -> Deadline {
        Deadline.after(seconds: seconds, from: Deadline(uptimeNanoseconds: 1_000_000_000))
    }

    /// A machine that served one request on a kept-alive connection, now idle at `t`.
    static func idleAfterOneRequest(at t: Double) -> Machine {
        var machine = Machine(timing: timing(), now: at(0))
        machine.headBytesArrived(now: at(0))
        machine.headParsed(hasBody: false, keepAlive: true, now: at(0))
        _ = machine.bodyComplete()
        _ = machine.responseReady(now: at(0))
        _ = machine.writeCompleted(now: at(t))
        return machine
    }

    @Test func aNewConnectionsHeaderDeadlineRunsFromAcceptAndIsNotMovedByItsFirstByte() {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        #expect(machine.deadline == Self.at(10))
        #expect(machine.isIdle)
        machine.headBytesArrived(now: Self.at(9))
        #expect(machine.deadline == Self.at(10))
        let answer1 = machine.tick(now: Self.at(9.9))
        #expect(answer1 == (.none, nil))
        let answer2 = machine.tick(now: Self.at(10))
        #expect(answer2 == (.reject(.requestTimeout), .header))
    }

    @Test func aSilentNewConnectionIsClosedAtTheHeaderDeadline() {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        let answer3 = machine.tick(now: Self.at(10))
        #expect(answer3 == (.close, .header))
    }

    @Test func theNextHeadsDeadlineIsAbsoluteFromItsFirstByte() {
        var machine = Self.idleAfterOneRequest(at: 1)
        #expect(machine.deadline == Self.at(31))  // idle
        machine.headBytesArrived(now: Self.at(5))
        #expect(machine.deadline == Self.at(15))
        // More bytes of the same head do not extend it (a trickling client).
        machine.headBytesArrived(now: Self.at(14))
        #expect(machine.deadline == Self.at(15))
        let answer4 = machine.tick(now: Self.at(15))
        #expect(answer4 == (.reject(.requestTimeout), .header))
    }

    @Test func anIdleKeepAliveConnectionClosesAtTheIdleDeadline() {
        var machine = Self.idleAfterOneRequest(at: 1)
        let answer5 = machine.tick(now: Self.at(30.9))
        #expect(answer5 == (.none, nil))
        let answer6 = machine.tick(now: Self.at(31))
        #expect(answer6 == (.close, .idle))
    }

    @Test(arguments: [(true, Self.at(25)), (false, Self.at(10))])
    func aBodyRunsItsOwnDeadline(hasBody: Bool, deadline: Deadline) {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        machine.headBytesArrived(now: Self.at(1))
        machine.headParsed(hasBody: hasBody, keepAlive: true, now: Self.at(5))
        #expect(machine.phase == .readingBody)
        #expect(machine.deadline == deadline)
        if hasBody {
            let answer7 = machine.tick(now: Self.at(25))
            #expect(answer7 == (.reject(.requestTimeout), .body))
        }
    }

    @Test func noDeadlineRunsWhileTheHandlerDoes() {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        machine.headBytesArrived(now: Self.at(0))
        machine.headParsed(hasBody: false, keepAlive: true, now: Self.at(0))
        let answer8 = machine.bodyComplete()
        #expect(answer8 == .dispatch)
        #expect(machine.phase == .handling)
        #expect(!machine.isReading)
        #expect(machine.deadline == .never)
        let answer9 = machine.tick(now: Self.at(1e5))
        #expect(answer9 == (.none, nil))
        #expect(machine.requestsServed == 1)
        // A second completion of the same request dispatches nothing.
        let answer10 = machine.bodyComplete()
        #expect(answer10 == .none)
    }

    struct KeepAliveCase: Sendable {
        var keepAliveRequested: Bool
        var maxRequests: Int
        var draining: Bool
        var closes: Bool
    }

    @Test(arguments: [
        KeepAliveCase(keepAliveRequested: true, maxRequests: 1000, draining: false, closes: false),
        KeepAliveCase(keepAliveRequested: false, maxRequests: 1000, draining: false, closes: true),
        KeepAliveCase(keepAliveRequested: true, maxRequests: 1, draining: false, closes: true),
        KeepAliveCase(keepAliveRequested: true, maxRequests: 1000, draining: true, closes: true),
    ])
    func whetherAResponseKeepsTheConnection(_ row: KeepAliveCase) {
        var machine = Machine(timing: Self.timing(maxRequests: row.maxRequests), now: Self.at(0))
        machine.headBytesArrived(now: Self.at(0))
        machine.headParsed(hasBody: false, keepAlive: row.keepAliveRequested, now: Self.at(0))
        _ = machine.bodyComplete()
        if row.draining {
            let answer11 = machine.drain(now: Self.at(1))
            #expect(answer11 == .none)
        }
        let answer12 = machine.responseReady(now: Self.at(2))
        #expect(answer12 == row.closes)
        #expect(machine.phase == .writing(close: row.closes))
        #expect(machine.deadline == Self.at(42))
        if row.closes {
            let answer13 = machine.writeCompleted(now: Self.at(3))
            #expect(answer13 == .linger)
            #expect(machine.phase == .lingering)
            #expect(machine.deadline == Self.at(5))
            let answer14 = machine.tick(now: Self.at(5))
            #expect(answer14 == (.close, nil))
        } else {
            let answer15 = machine.writeCompleted(now: Self.at(3))
            #expect(answer15 == .readNext)
            #expect(machine.isIdle)
            #expect(machine.deadline == Self.at(33))
        }
    }

    @Test func aClientThatDoesNotReadIsClosedAtTheWriteDeadline() {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        machine.headBytesArrived(now: Self.at(0))
        machine.headParsed(hasBody: false, keepAlive: true, now: Self.at(0))
        _ = machine.bodyComplete()
        _ = machine.responseReady(now: Self.at(1))
        let answer16 = machine.tick(now: Self.at(40.9))
        #expect(answer16 == (.none, nil))
        let answer17 = machine.tick(now: Self.at(41))
        #expect(answer17 == (.close, .write))
    }

    @Test func aRejectAnswersOnlyWhileReadingAndThenCloses() {
        var reading = Machine(timing: Self.timing(), now: Self.at(0))
        reading.headBytesArrived(now: Self.at(0))
        let answer18 = reading.rejectReady(now: Self.at(1))
        #expect(answer18)
        #expect(reading.phase == .writing(close: true))
        let answer19 = reading.writeCompleted(now: Self.at(2))
        #expect(answer19 == .linger)

        var handling = Machine(timing: Self.timing(), now: Self.at(0))
        handling.headBytesArrived(now: Self.at(0))
        handling.headParsed(hasBody: false, keepAlive: true, now: Self.at(0))
        _ = handling.bodyComplete()
        let answer20 = handling.rejectReady(now: Self.at(1))
        #expect(!answer20)
        #expect(handling.phase == .handling)
    }

    struct DrainCase: Sendable {
        var served: Bool
        var headStarted: Bool
        var action: Machine.Action
        var deadline: Double
    }

    @Test(arguments: [
        // Idle after a request: closes now.
        DrainCase(served: true, headStarted: false, action: .close, deadline: 31),
        // New and silent: the linger time to send its first request, then the sweep.
        DrainCase(served: false, headStarted: false, action: .none, deadline: 7),
        // A head in progress: finished and answered with Connection: close.
        DrainCase(served: false, headStarted: true, action: .none, deadline: 10),
    ])
    func drain(_ row: DrainCase) {
        var machine =
            row.served
            ? Self.idleAfterOneRequest(at: 1) : Machine(timing: Self.timing(), now: Self.at(0))
        if row.headStarted { machine.headBytesArrived(now: Self.at(3)) }
        let answer21 = machine.drain(now: Self.at(5))
        #expect(answer21 == row.action)
        #expect(machine.draining)
        #expect(machine.deadline == Self.at(row.deadline))
    }

    @Test func aClosedConnectionDecidesNothing() {
        var machine = Machine(timing: Self.timing(), now: Self.at(0))
        machine.closed()
        #expect(machine.phase == .closed)
        let answer22 = machine.tick(now: Self.at(1e5))
        #expect(answer22 == (.none, nil))
        let answer23 = machine.rejectReady(now: Self.at(1))
        #expect(!answer23)
        let answer24 = machine.writeCompleted(now: Self.at(1))
        #expect(answer24 == .none)
    }
}
