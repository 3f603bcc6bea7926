import Foundation
import TestSupport

/// A running Tests/Fixtures/provider_stub.py (its `control` mode): a separate provider process that records what
/// it receives and answers what it is told. Ends with the test (its stdin closes).
final class ProviderStub: Sendable {
    /// What the stub received, one request.
    struct Received: Sendable {
        let method: String
        let target: String
        let headers: [(name: String, value: String)]
        let body: String

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as a JSON object, or nil.
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }

        /// The form fields of the body.
        var form: [String: String] {
            var fields: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let parts = pair.split(
                    separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                func decode(_ text: Substring) -> String {
                    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
            }
            return fields
        }
    }

    let port: UInt16
    let controlPort: UInt16
    let tls: Bool
    private let process: ChildProcess

    static func start(tls: Bool = false) async throws -> ProviderStub {
        try await offPool { try ProviderStub(tls: tls) }
    }

    private init(tls: Bool) throws {
        var arguments = [Fixture.shared("provider_stub.py")]
        if tls {
            let pki = TestPKI.shared
            arguments += ["--tls", pki.cert("good"), pki.key("good")]
        }
        // The stub exits when its stdin closes, so a crashed test leaves no server behind.
        let process = try ChildProcess("python3", arguments, stdin: .heldOpen)
        self.process = process
        let out = process.stdout
        let err = process.stderr
        self.tls = tls
        guard let line = out.waitForLine(prefix: "PORT ") else {
            process.kill()
            throw EndToEndFailure("provider stub did not start: \(err.text)")
        }
        let fields = line.split(separator: " ")
        guard fields.count == 3, let port = UInt16(fields[0]), let control = UInt16(fields[2])
        else {
            process.kill()
            throw EndToEndFailure("provider stub printed \(line)")
        }
        self.port = port
        self.controlPort = control
    }

    /// The token URL tokenswap is given for this stub.
    func tokenURL(_ path: String = "/api/token") -> String {
        tls ? "https://localhost:\(port)\(path)" : "http://127.0.0.1:\(port)\(path)"
    }

    /// What the stub answers from now on: to every request, or with `path` only to
    /// requests for that path.
    func answer(
        status: Int = 200, headers: [(String, String)] = [], body: String,
        mode: String = "normal", delayMilliseconds: Int = 0, path: String? = nil
    ) async throws {
        var object: [String: Any] = [
            "status": status, "headers": headers.map { [$0.0, $0.1] }, "body": body,
            "mode": mode, "delay_ms": delayMilliseconds,
        ]
        if let path { object["path"] = path }
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let reply = try await Exchange.request(
            "POST", "/answer", port: controlPort, headers: [("Content-Type", "application/json")],
            body: json)
        guard reply.status == 200 else { throw EndToEndFailure("stub control: \(reply)") }
    }

    /// Answers a token JSON object with these members (to `path` only, when given).
    func answerTokens(_ members: [String: Any], status: Int = 200, path: String? = nil)
        async throws
    {
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
        try await answer(status: status, body: body, path: path)
    }

    /// Everything received so far, in order.
    func received() async throws -> [Received] {
        let reply = try await Exchange.request("GET", "/requests", port: controlPort)
        guard
            let list = try JSONSerialization.jsonObject(with: Data(reply.body.utf8))
                as? [[String: Any]]
        else { throw EndToEndFailure("stub control: \(reply.status)") }
        return list.map { item in
            let pairs = (item["headers"] as? [[String]]) ?? []
            return Received(
                method: item["method"] as? String ?? "", target: item["target"] as? String ?? "",
                headers: pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil },
                body: item["body"] as? String ?? "")
        }
    }

    /// What the stub wrote on stderr (it must stay silent about what it received).
    var errorOutput: String { process.stderr.text }
}
