import Foundation
import Testing
import TokenSwapClient

/// However many callers need a token at once, one refresh goes out and all of them get
/// its answer; the rotated refresh token is stored before any of them gets the access
/// token.
@Suite struct TokenSessionSingleFlightTests {
    @Test func fiftyConcurrentCallersAtLaunchShareOneRefresh() async throws {
        let fixture = try SessionFixture()
        let gate = Gate()
        await fixture.server.holdRefreshes(at: gate)
        let callers = Callers()
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await callers.call()
                    return try await fixture.session.accessToken()
                }
            }
            // The one refresh is held until all 50 have called (a caller that reached the
            // session after its answer would take the stored token: one refresh either way).
            await waitUntil { await fixture.server.count("/v1/refresh") == 1 }
            await waitUntil { await callers.count == 50 }
            await gate.open()
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 50)
        #expect(Set(tokens) == ["access-1"])
        #expect(await fixture.server.count("/v1/refresh") == 1)
        #expect(await fixture.store.stored?.revealed == "refresh-1")
    }

    @Test func fiftyConcurrentCallersAtExpiryShareOneRefresh() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        fixture.clock.advance(3600)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await fixture.session.accessToken() } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == ["access-2"])
        #expect(await server.count("/v1/refresh") == 1)
        // The sandbox-like fake kills a rotated token: a second refresh with refresh-1
        // would have been invalid_grant and signed the user out.
        #expect(await fixture.session.status() == .signedIn)
    }

    @Test func theRotatedRefreshTokenIsStoredBeforeTheAccessTokenIsHandedOut() async throws {
        let fixture = try SessionFixture()
        let gate = Gate()
        await fixture.store.holdSaves(at: gate)
        let store = fixture.store
        let first = Task {
            let token = try await fixture.session.accessToken()
            await store.note("handed out \(token)")
            return token
        }
        await store.saveEntered.wait()
        // The refresh has answered and its save is held: a second caller must wait too
        // (the log's order below says it did).
        let callers = Callers()
        let second = Task {
            await callers.call()
            let token = try await fixture.session.accessToken()
            await store.note("handed out \(token)")
            return token
        }
        await waitUntil { await callers.count == 1 }
        #expect(await store.log == [])
        await gate.open()
        #expect(try await first.value == "access-1")
        #expect(try await second.value == "access-1")
        #expect(
            await store.log == ["saved refresh-1", "handed out access-1", "handed out access-1"])
    }

    @Test func aFailedSaveHandsOutNothingAndTheNextCallStoresTheKeptToken() async throws {
        let fixture = try SessionFixture()
        await fixture.store.setSaveFails(true)
        await #expect(throws: TokenSwapClientError.storageUnavailable) {
            try await fixture.session.accessToken()
        }
        #expect(await fixture.store.stored?.revealed == "refresh-0")
        await fixture.store.setSaveFails(false)
        // refresh-0 is dead now (rotated); the session kept refresh-1 in memory.
        #expect(try await fixture.session.accessToken() == "access-1")
        #expect(await fixture.store.stored?.revealed == "refresh-1")
        #expect(await fixture.server.count("/v1/refresh") == 1)
        #expect(
            await fixture.events(1) == [
                .transientFailure(
                    TransientFailure(kind: .storageUnavailable, retryAfterSeconds: nil))
            ])
    }

    @Test func tenConcurrent401sShareOneRefresh() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        // The provider revoked access-1 early; the session does not know yet.
        await server.revokeCurrentAccessToken()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await fixture.session.data(for: SessionFixture.api).1.statusCode
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(await server.count("/v1/refresh") == 1)
    }
}

/// Counts the callers that have started their call.
actor Callers {
    private(set) var count = 0
    func call() { count += 1 }
}
