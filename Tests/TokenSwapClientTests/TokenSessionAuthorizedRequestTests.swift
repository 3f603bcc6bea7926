import Foundation
import Testing
import TokenSwapClient

/// `data(for:)`: a 401 gets one refresh and one retry; a second 401 is the caller's.
@Suite struct TokenSessionAuthorizedRequestTests {
    @Test func sendsTheAccessTokenAsABearerToken() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        let (data, response) = try await fixture.session.data(for: SessionFixture.api)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"me":"ok"}"#)
        #expect(await server.requests.last?.authorization == "Bearer access-1")
        let authorized = try await fixture.session.authorize(SessionFixture.api)
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "Bearer access-1")
    }

    @Test func a401RefreshesOnceAndRetriesOnce() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.revokeCurrentAccessToken()
        let (_, response) = try await fixture.session.data(for: SessionFixture.api)
        #expect(response.statusCode == 200)
        #expect(await server.count("/v1/refresh") == 1)
        #expect(
            await server.requests.filter { $0.path == "/api" }.map(\.authorization) == [
                "Bearer access-1", "Bearer access-2",
            ])
    }

    @Test func aPersistent401IsReturnedAfterOneRetryAndDoesNotLoop() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.setAPIRefusesEverything(true)
        let (_, response) = try await fixture.session.data(for: SessionFixture.api)
        #expect(response.statusCode == 401)
        #expect(await server.count("/api") == 2)
        #expect(await server.count("/v1/refresh") == 1)
        // A 401 is the API's opinion, not the provider's: the user stays signed in.
        #expect(await fixture.session.status() == .signedIn)
    }

    @Test func otherErrorsAreReturnedWithoutARefresh() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        await server.script("/api", .answer(status: 403, body: ""), .answer(status: 500, body: ""))
        #expect(try await fixture.session.data(for: SessionFixture.api).1.statusCode == 403)
        #expect(try await fixture.session.data(for: SessionFixture.api).1.statusCode == 500)
        #expect(await server.count("/v1/refresh") == 0)
    }

    @Test func invalidateAccessTokenReplacesOnlyTheRefusedToken() async throws {
        let fixture = try SessionFixture(storedRefreshToken: nil)
        let server = try await fixture.signedIn()
        #expect(try await fixture.session.invalidateAccessToken("access-1") == "access-2")
        // Someone refused access-1 late: access-2 is already there, no second refresh.
        #expect(try await fixture.session.invalidateAccessToken("access-1") == "access-2")
        #expect(await server.count("/v1/refresh") == 1)
    }
}
