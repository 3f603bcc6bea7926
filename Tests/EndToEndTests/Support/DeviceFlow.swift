import Foundation
import Testing

/// The device side of RFC 8628 against a running tokenswap, and the user's side of the
/// sandbox's verification page, as plain HTTP (what a TV or a CLI sends).
enum DeviceFlow {
    /// `POST <prefix>/device/code` (`prefix` `/v1` or `/v1/<name>`).
    static func requestCode(
        _ port: UInt16, prefix: String = "/v1", scope: String? = nil,
        headers: [(String, String)] = []
    ) async throws -> Exchange.Answer {
        let body = scope.map { "scope=\(Exchange.encode($0))" } ?? ""
        return try await Exchange.request(
            "POST", prefix + "/device/code", port: port,
            headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            body: body)
    }

    /// `POST <prefix>/device/token` with the sealed device code.
    static func poll(_ port: UInt16, prefix: String = "/v1", deviceCode: String) async throws
        -> Exchange.Answer
    {
        try await Exchange.form(prefix + "/device/token", port: port, [("device_code", deviceCode)])
    }

    /// A new device code from `codePort`, polled on `firstPort` and at once on `secondPort`:
    /// the code, the two answers, and whether the two polls took under 0.9 s. The sandbox
    /// asks for a 1 s interval, so only then is the second poll surely too soon; a machine
    /// that stalled between them may have made it a poll in time, which shows nothing about
    /// a poll too soon, and the caller tries a new code (counting what the answers say).
    static func pollTwiceAtOnce(
        code codePort: UInt16, first firstPort: UInt16, second secondPort: UInt16
    )
        async throws
        -> (deviceCode: String, first: Exchange.Answer, second: Exchange.Answer, quick: Bool)
    {
        let code = try await requestCode(codePort)
        let sealed = try #require(code.string("device_code"))
        let clock = ContinuousClock()
        let started = clock.now
        let first = try await poll(firstPort, deviceCode: sealed)
        let second = try await poll(secondPort, deviceCode: sealed)
        return (sealed, first, second, clock.now - started < .milliseconds(900))
    }

    /// The user approves (or denies) on the sandbox's page, as a browser does: the page
    /// first (its form cookie and token), then the form posted with both.
    static func decide(_ port: UInt16, userCode: String, approve: Bool = true) async throws
        -> Exchange.Answer
    {
        let (cookie, token) = try await formToken(port)
        return try await post(
            port, cookie: cookie,
            [
                ("form_token", token), ("user_code", userCode),
                ("action", approve ? "approve" : "deny"),
            ])
    }

    /// The verification page's form cookie (`name=value`) and the token its form carries.
    static func formToken(_ port: UInt16) async throws -> (cookie: String, token: String) {
        let page = try await Exchange.request("GET", "/sandbox/device", port: port)
        guard let setCookie = page.header("Set-Cookie"),
            let cookie = setCookie.split(separator: ";").first,
            let start = page.body.range(of: #"name="form_token" value=""#),
            let end = page.body[start.upperBound...].firstIndex(of: "\"")
        else { throw EndToEndFailure("the verification page has no form token: \(page)") }
        return (String(cookie), String(page.body[start.upperBound..<end]))
    }

    /// `POST /sandbox/device` with the form cookie (when given) and `fields`.
    static func post(_ port: UInt16, cookie: String?, _ fields: [(String, String)]) async throws
        -> Exchange.Answer
    {
        let body = fields.map { "\(Exchange.encode($0.0))=\(Exchange.encode($0.1))" }
            .joined(separator: "&")
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try await Exchange.request(
            "POST", "/sandbox/device", port: port, headers: headers, body: body)
    }

    /// The `interval` member of a poll answer.
    static func interval(_ answer: Exchange.Answer) -> Int? {
        answer.json?["interval"] as? Int
    }

    /// Waits `seconds` (the device's polling interval) plus a margin. Time itself is what
    /// is tested: RFC 8628 §3.5 makes the interval the client's to keep, and tokenswap
    /// answers `slow_down` to a poll that comes sooner.
    static func wait(seconds: Int) async throws {
        try await Task.sleep(for: .milliseconds(seconds * 1000 + 150))
    }

    /// `tokenswap_device_polls_total{provider,outcome}` from `/metrics`, or 0.
    static func metric(_ port: UInt16, _ series: String) async throws -> Double {
        let metrics = try await Exchange.request("GET", "/metrics", port: port)
        for line in metrics.body.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return 0
    }
}
