import HTTPCore
import Sealing

/// A refresh's answer as the replay window keeps it (CONTRACT §12): a `200` or a
/// `400 invalid_grant`, sealed under the active key with its own kind
/// (`SealedKind.keptAnswer`), and bound to the request that made it: the digest of its
/// `StateKey` is the first part of the plaintext, so an answer kept for one token never
/// opens as the answer for another, even if a store mixed up its values.
///
/// Plaintext layout: version (1) | key digest (32) | status (2, big-endian) | body.
struct KeptAnswer: Sendable, Equatable {
    let status: HTTPStatus
    let body: [UInt8]

    static let version: UInt8 = 1
    private static let digestByteCount = 32
    private static let headerByteCount = 1 + digestByteCount + 2

    /// What of `result` is kept: a `200`, or a `400` whose `error` is `invalid_grant` when
    /// `refusals` (a refresh; a device poll keeps its tokens only). Nil for everything else:
    /// a 429, a 5xx, a 502/504 and any other answer leave nothing (the next request calls
    /// the provider again).
    init?(_ result: Result<HTTPResponse, GrantError>, refusals: Bool) {
        switch result {
        case .success(let response) where response.status.code == 200:
            self.init(status: response.status, body: response.body)
        case .failure(let error) where refusals:
            let response = error.response
            guard response.status.code == 400,
                (try? JSONParser.parse(response.body))?["error"]?.stringValue == "invalid_grant"
            else { return nil }
            self.init(status: response.status, body: response.body)
        default:
            return nil
        }
    }

    init(status: HTTPStatus, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// The plaintext to seal, bound to `key`.
    func plaintext(boundTo key: StateKey) -> [UInt8] {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(Self.headerByteCount + body.count)
        bytes += key.digest
        bytes.append(UInt8(truncatingIfNeeded: status.code >> 8))
        bytes.append(UInt8(truncatingIfNeeded: status.code))
        bytes += body
        return bytes
    }

    /// The answer in `plaintext`, or nil when it is not one this version wrote or was kept
    /// for another request than `key`'s.
    init?(plaintext: [UInt8], boundTo key: StateKey) {
        guard plaintext.count >= Self.headerByteCount, plaintext[0] == Self.version,
            plaintext[1...Self.digestByteCount].elementsEqual(key.digest)
        else { return nil }
        let code =
            Int(plaintext[Self.digestByteCount + 1]) << 8
            | Int(plaintext[Self.digestByteCount + 2])
        guard code == 200 || code == 400 else { return nil }
        self.init(
            status: code == 200 ? .ok : .badRequest,
            body: Array(plaintext[Self.headerByteCount...]))
    }

    /// The answer as replayed `age` after the provider gave it: a `200` with `expires_in`
    /// counted down by the whole seconds since (clamped at 0), every other member the same;
    /// a `400` as it was.
    func replayed(age: Duration) -> Result<HTTPResponse, GrantError> {
        guard status.code == 200 else {
            return .failure(.providerRejected(status: status, body: body))
        }
        return .success(
            HTTPResponse(
                status: .ok, headers: TokenResponseHeaders.base,
                body: Self.countedDown(body, by: age.components.seconds)))
    }

    /// `body` with its integer `expires_in` lowered by `seconds` (never below 0); unchanged
    /// when it has none (`ProviderTokenResponse` wrote it as a plain integer).
    static func countedDown(_ body: [UInt8], by seconds: Int64) -> [UInt8] {
        guard seconds > 0, case .object(var members)? = try? JSONParser.parse(body),
            let index = members.firstIndex(where: { $0.name == "expires_in" }),
            case .number(let text) = members[index].value, let expiresIn = Int64(text)
        else { return body }
        // Both are bounded (a provider's integer, a window of minutes), but saturate anyway.
        let (left, overflow) = expiresIn.subtractingReportingOverflow(seconds)
        members[index].value = .number(String(overflow ? 0 : max(0, left)))
        return JSONValue.object(members).serialized
    }
}
