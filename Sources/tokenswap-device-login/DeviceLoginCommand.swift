import ArgumentParser
import Foundation
import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client kit's example: a command-line device that signs in with the device flow the
/// way the L2P client does (`obtainUserCode`, show it, `getTokens` until approved), keeps
/// the refresh token in a 0600 file, and then calls an API with fresh access tokens,
/// refreshing when they expire. Runs against `tokenswap serve --sandbox`.
@main
struct DeviceLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenswap-device-login",
        abstract: "Sign in with the device flow through tokenswap, then call an API.")

    @Option(help: "The tokenswap deployment.")
    var baseURL = "http://localhost:8080"

    @Option(help: "The provider's name (default: the deployment's default provider).")
    var provider: String?

    @Option(help: "Scopes to ask for, space-separated.")
    var scope: String?

    @Option(
        help: "An API to GET with the access token; without it each call introspects the token.")
    var apiURL: String?

    @Option(help: "Where the refresh token is kept (a 0600 file).")
    var store = FileManager.default.homeDirectoryForCurrentUser.path + "/.tokenswap-device-login"

    @Option(help: "How many API calls to make.")
    var calls = 3

    @Option(help: "Seconds between API calls.")
    var intervalSeconds = 5.0

    @Option(help: "Refresh this many seconds before the access token expires.")
    var refreshSkewSeconds = 60.0

    @Flag(help: "Sign out at the end, revoking the tokens.")
    var signOut = false

    /// `Duration.seconds(_:)` traps on NaN, infinity and values past its range: a number
    /// typed on the command line is bounded before it becomes a wait.
    func validate() throws {
        guard intervalSeconds.isFinite, (0...86_400).contains(intervalSeconds) else {
            throw ValidationError("--interval-seconds: a number of seconds from 0 to 86400")
        }
    }

    func run() async throws {
        guard let base = URL(string: baseURL) else {
            throw ValidationError("--base-url: not a URL")
        }
        let endpoints = try TokenSwapEndpoints(baseURL: base, provider: provider)
        let session = TokenSession(
            backend: TokenSwapBackend(endpoints: endpoints),
            store: FileCredentialStore(path: store),
            configuration: TokenSessionConfiguration(refreshSkewSeconds: refreshSkewSeconds))
        // Events print as they come, up to the first sign-out (the session's last word).
        // Subscribed here, before the first call: a stream has the events from its
        // subscription on, and the task may start after the session's first event.
        let subscription = session.events
        let events = Task {
            for await event in subscription {
                say("event: \(Self.describe(event))")
                if case .signedOut = event { return }
            }
        }
        defer { events.cancel() }

        if await session.status() == .signedIn {
            say("Signed in (refresh token from \(store)).")
        } else {
            try await signIn(session)
        }
        for call in 1...max(1, calls) {
            if call > 1 { try await Task.sleep(for: .seconds(intervalSeconds)) }
            say("call \(call): \(try await callAPI(session))")
        }
        if signOut {
            let outcome = try await session.signOut()
            // The sign-out's event (emitted before `signOut` returns) is printed first,
            // so the summary is the last line.
            await events.value
            say("Signed out (revocation: \(outcome.map { "\($0)" } ?? "none")).")
        }
    }

    /// RFC 8628 §3.3: show the user code and where to enter it, then wait.
    private func signIn(_ session: TokenSession) async throws {
        let started = try await session.deviceFlow.start(scope: scope)
        let authorization = started.authorization
        say(
            "To sign in, open \(authorization.verificationURI.absoluteString) "
                + "and enter the code \(authorization.userCode.revealed)")
        if let complete = authorization.verificationURIComplete {
            say("(or open \(complete.absoluteString))")
        }
        say("Waiting for approval (the code expires in \(authorization.expiresInSeconds) s)...")
        try await session.signIn(approving: started)
        say("Signed in.")
    }

    /// `data(for:)`, Yoli's `authorizedRequest` (a 401 refreshes and retries once), or the
    /// seeds' `tokenIsValid` when no API is given.
    private func callAPI(_ session: TokenSession) async throws -> String {
        guard let apiURL else {
            let answer = try await session.introspect()
            return answer.active ? "the access token is active" : "the access token is not active"
        }
        guard let url = URL(string: apiURL) else { throw ValidationError("--api-url: not a URL") }
        let (data, response) = try await session.data(for: URLRequest(url: url))
        return "HTTP \(response.statusCode), \(data.count) bytes"
    }

    private static func describe(_ event: TokenSessionEvent) -> String {
        switch event {
        case .signedIn: "signed in"
        case .refreshed(let seconds): "refreshed (expires in \(seconds.map { "\($0) s" } ?? "?"))"
        case .signedOut(let reason): "signed out: \(reason)"
        case .transientFailure(let failure): "transient failure: \(failure)"
        case .grantEndingSoon(let seconds): "the grant ends in \(Int(seconds / 86400)) days"
        }
    }
}

/// One line on stdout, written at once, unbuffered (a terminal or a pipe is waiting).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
