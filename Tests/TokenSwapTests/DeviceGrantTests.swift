import HTTPCore
import Testing
import Transport

@testable import TokenSwap

/// The device grant's pure parts: poll bookkeeping, dialect interpretation, the sealed
/// envelope, the page's escaping.
@Suite struct DeviceGrantTests {
    static func response(_ status: HTTPStatus, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: TokenResponseHeaders.base, body: Array(body.utf8))
    }

    @Test func pendingAndSlowDownCarryTheInterval() throws {
        for (error, interval) in [(DevicePollError.authorizationPending, 5), (.slowDown, 10)] {
            let body = try JSONParser.parse(
                GrantError.devicePoll(error, interval: interval).response.body)
            #expect(body["error"]?.stringValue == error.rawValue)
            #expect(body["interval"] == .number(String(interval)))
        }
    }

    @Test func scheduleAnswersSlowDownSoonerThanTheIntervalAndRaisesIt() {
        let schedule = DevicePollSchedule(capacity: 4)
        let start = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        let life = Duration.seconds(600)
        #expect(
            schedule.poll("d", initialInterval: 5, lifetime: life, now: start) == .poll(interval: 5)
        )
        #expect(
            schedule.poll(
                "d", initialInterval: 5, lifetime: life, now: .after(seconds: 4, from: start))
                == .slowDown(interval: 10))
        // The raised interval counts from the last poll, early or not.
        #expect(
            schedule.poll(
                "d", initialInterval: 5, lifetime: life, now: .after(seconds: 13, from: start))
                == .slowDown(interval: 15))
        #expect(
            schedule.poll(
                "d", initialInterval: 5, lifetime: life, now: .after(seconds: 29, from: start))
                == .poll(interval: 15))
        #expect(schedule.providerAskedToSlowDown("d") == 20)
        #expect(schedule.providerAskedToSlowDown("unknown") == nil)
        schedule.finish("d")
        #expect(schedule.count == 0)
    }

    @Test func scheduleIsBounded() {
        let schedule = DevicePollSchedule(capacity: 3)
        let now = Deadline(uptimeNanoseconds: 1_000_000_000_000)  // any fixed instant
        for index in 0..<50 {
            _ = schedule.poll(
                "code-\(index)", initialInterval: 5, lifetime: .seconds(600), now: now)
        }
        #expect(schedule.count == 3)
    }

    @Test func envelopeRoundTripsAndRefusesOtherPlaintexts() {
        let envelope = DeviceCodeEnvelope(
            deviceCode: "dc-1", expiresAt: 1_900_000_000, intervalSeconds: 5)
        #expect(DeviceCodeEnvelope(plaintext: Array(envelope.plaintext.utf8)) == envelope)
        #expect(!"\(envelope)".contains("dc-1"))
        for text in ["dc-1", "{}", #"{"d":"x","e":"soon","i":5}"#, #"{"d":"","e":1,"i":5}"#] {
            #expect(DeviceCodeEnvelope(plaintext: Array(text.utf8)) == nil)
        }
    }

    @Test func l2pStatusesAreRecognisedWithOrWithoutThePeriod() throws {
        let dialect = ProviderDialect.l2p
        for (body, expected) in [
            (#"{"status":"error: authorization pending."}"#, DevicePollError.authorizationPending),
            (#"{"status":"error: authorization pending"}"#, .authorizationPending),
            (#"{"status":" error: slow down "}"#, .slowDown),
        ] {
            guard case .refused(let refusal) = try dialect.interpretPoll(Self.response(.ok, body))
            else {
                Issue.record("\(body) gave tokens")
                continue
            }
            #expect(refusal == expected)
        }
        for body in [
            #"{"status":"authorization invalid."}"#, #"{"status":"error: refresh token invalid."}"#,
        ] {
            #expect(throws: GrantError.self) {
                try dialect.interpretToken(Self.response(.ok, body))
            }
            do {
                _ = try dialect.interpretToken(Self.response(.ok, body))
            } catch {
                #expect(error.status == .badRequest)
                #expect(
                    try JSONParser.parse(error.response.body)["error"]?.stringValue
                        == "invalid_grant")
            }
        }
        // The same 200 from an RFC provider is not a token response: 502.
        do {
            _ = try ProviderDialect.rfc8628.interpretToken(
                Self.response(.ok, #"{"status":"authorization invalid."}"#))
            Issue.record("an RFC provider's status string was taken for tokens")
        } catch {
            #expect(error.status == .badGateway)
        }
    }

    @Test func a5xxIsNeverReadAsAPollAnswer() {
        #expect(throws: GrantError.upstreamError(reason: "provider answered 503")) {
            try ProviderDialect.rfc8628.interpretPoll(
                Self.response(.serviceUnavailable, #"{"error":"authorization_pending"}"#))
        }
    }

    @Test func l2pVerificationURIComplete() throws {
        let answer = try ProviderDialect.l2p.interpretDeviceAuthorization(
            Self.response(
                .ok,
                #"{"device_code":"d","user_code":"A B","verification_url":"https://x/manage/","expires_in":"1800","status":"ok"}"#
            ))
        #expect(answer.verificationURIComplete == "https://x/manage/?q=verify&d=A+B")
        #expect(answer.expiresIn == 1800)
        #expect(answer.intervalSeconds == 5)
        #expect(throws: GrantError.self) {
            try ProviderDialect.l2p.interpretDeviceAuthorization(
                Self.response(.ok, #"{"status":"error: invalid client."}"#))
        }
    }
}
