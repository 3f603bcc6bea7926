import Foundation
import TokenSwapClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// tokenswap and an API as a transport, in memory. `/v1/refresh` rotates like the
/// sandbox does (CONTRACT §5: every refresh rotates, the old token is dead afterwards);
/// `/api` accepts only the current access token. Scripted replies override an endpoint
/// one answer at a time.
actor FakeTokenSwap: HTTPTransport {
    enum Reply: Sendable {
        case answer(status: Int, body: String, headers: [String: String] = [:])
        case noAnswer(URLError.Code)
    }

    private(set) var currentAccess = "access-0"
    private(set) var currentRefresh = "refresh-0"
    private var issued = 0
    /// `expires_in` as JSON text: `3600`, or `"3600"` as some providers send it.
    var expiresIn = "3600"
    private(set) var requests:
        [(path: String, form: [String: String], authorization: String?, dpop: String?)] = []
    /// Added to every answer of the endpoints' own (not scripted ones): a
    /// `refresh_token_expires_in` member, a `DPoP-Nonce` header.
    var refreshTokenExpiresIn: Int?
    var nonceHeader: String?
    private var scripted: [String: [Reply]] = [:]
    private var refreshGate: Gate?
    private var revokeGate: Gate?
    var apiRefusesEverything = false
    /// The answers' `Date` header is this far off the test's wall clock.
    var dateOffsetSeconds: Double = 0

    func script(_ path: String, _ replies: Reply...) {
        scripted[path, default: []] += replies
    }

    func holdRefreshes(at gate: Gate) { refreshGate = gate }
    func holdRevocations(at gate: Gate) { revokeGate = gate }
    func setAPIRefusesEverything(_ refuses: Bool) { apiRefusesEverything = refuses }
    func setExpiresIn(_ value: String) { expiresIn = value }
    func setDateOffset(_ seconds: Double) { dateOffsetSeconds = seconds }
    func setRefreshTokenExpiresIn(_ seconds: Int?) { refreshTokenExpiresIn = seconds }
    func setNonceHeader(_ nonce: String?) { nonceHeader = nonce }
    /// The provider kills the access token before its expiry; the next refresh issues a
    /// new one.
    func revokeCurrentAccessToken() { currentAccess = "revoked" }

    func count(_ path: String) -> Int {
        requests.filter { $0.path == path }.count
    }

    /// The tokens sent to `/v1/revoke`, in order, each with its hint.
    var revoked: [String] {
        requests.filter { $0.path == "/v1/revoke" }.map {
            ($0.form["token"] ?? "") + " " + ($0.form["token_type_hint"] ?? "no hint")
        }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let form = Self.decodeForm(request.httpBody ?? Data())
        requests.append(
            (
                path, form, request.value(forHTTPHeaderField: "Authorization"),
                request.value(forHTTPHeaderField: "DPoP")
            ))
        if path.hasSuffix("/refresh"), let refreshGate { await refreshGate.wait() }
        if path.hasSuffix("/revoke"), let revokeGate { await revokeGate.wait() }
        if var queue = scripted[path], !queue.isEmpty {
            let reply = queue.removeFirst()
            scripted[path] = queue
            return try answer(reply, request)
        }
        var reply = endpoint(path, form, request)
        if let nonceHeader, case .answer(let status, let body, var headers) = reply {
            headers["DPoP-Nonce"] = nonceHeader
            reply = .answer(status: status, body: body, headers: headers)
        }
        return try answer(reply, request)
    }

    private func endpoint(_ path: String, _ form: [String: String], _ request: URLRequest)
        -> Reply
    {
        switch path {
        case "/v1/refresh":
            guard form["refresh_token"] == currentRefresh else {
                return
                    (.answer(
                        status: 400,
                        body: #"{"error":"invalid_grant","error_description":"revoked"}"#))
            }
            return (.answer(status: 200, body: rotate()))
        case "/v1/swap":
            return (.answer(status: 200, body: rotate()))
        case "/v1/revoke":
            return
                (.answer(status: 200, body: "{}", headers: ["Tokenswap-Revocation": "forwarded"]))
        case "/v1/introspect":
            let active = form["token"] == currentAccess
            return
                (.answer(
                    status: 200,
                    body: active
                        ? #"{"active":true,"scope":"s","exp":1900000000,"client_id":"c"}"#
                        : #"{"active":false}"#))
        case "/api":
            let expected = "Bearer \(currentAccess)"
            let ok =
                !apiRefusesEverything
                && request.value(forHTTPHeaderField: "Authorization") == expected
            return
                (ok
                ? .answer(status: 200, body: #"{"me":"ok"}"#)
                : .answer(
                    status: 401, body: "",
                    headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]))
        default:
            return (.answer(status: 404, body: #"{"error":"not_found"}"#))
        }
    }

    /// A token answer with the next access and refresh tokens.
    private func rotate() -> String {
        issued += 1
        currentAccess = "access-\(issued)"
        currentRefresh = "refresh-\(issued)"
        return
            #"{"access_token":"\#(currentAccess)","token_type":"Bearer","expires_in":\#(expiresIn),"refresh_token":"\#(currentRefresh)""#
            + (refreshTokenExpiresIn.map { #","refresh_token_expires_in":\#($0)"# } ?? "") + "}"
    }

    private func answer(_ reply: Reply, _ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        switch reply {
        case .noAnswer(let code):
            throw URLError(code)
        case .answer(let status, let body, let headers):
            var fields = headers
            fields["Content-Type"] = "application/json"
            // The server's clock: the manual clock's wall start (the device's), moved by the
            // test's offset, never the machine's.
            fields["Date"] =
                fields["Date"]
                ?? Self.httpDate(
                    Date(timeIntervalSince1970: ManualClock.wallStart + dateOffsetSeconds))
            let url = request.url ?? URL(fileURLWithPath: "/")
            guard
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
            else { throw URLError(.badServerResponse) }
            return (Data(body.utf8), response)
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func decodeForm(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
