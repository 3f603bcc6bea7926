import HTTPCore
import Sealing

/// A refresh's answer as the state store holds it (CONTRACT §12): kept for the replay
/// window when it is a `200` or a `400 invalid_grant`, or else handed only to the requests
/// waiting for the call in flight (single flight: each gets the answer of the one in
/// flight, whatever it is). Sealed under the active key with its own kind
/// (`SealedKind.keptAnswer`), and bound to the request that made it: the digest of its
/// `StateKey` is the first part of the plaintext, so an answer for one token never opens
/// as the answer for another, even if a store mixed up its values. It also remembers the
/// DPoP key that proved that request, or that none did (`prover`, CONTRACT §12): a repeat
/// gets it only when proved by the same key, or, when none did, with no proof.
///
/// Plaintext layout (version 2): version (1) | key digest (32) | proved (1: 0 or 1) |
/// the prover's thumbprint (32, zeros when none) | status (2, big-endian) | `Retry-After`
/// seconds (4, big-endian, 0: none) | body. Version 1 had no prover: an answer kept by an
/// earlier version counts as absent (the repeat calls the provider, as after the window).
struct KeptAnswer: Sendable, Equatable {
    let status: Int
    let retryAfterSeconds: Int?
    let body: [UInt8]
    /// The RFC 7638 thumbprint of the DPoP key that proved the request that made the
    /// answer; nil when none did.
    let prover: [UInt8]?

    static let version: UInt8 = 2
    private static let digestByteCount = 32
    private static let proverOffset = 1 + digestByteCount
    private static let thumbprintByteCount = SealedGrant.thumbprintByteCount
    private static let statusOffset = proverOffset + 1 + thumbprintByteCount
    private static let headerByteCount = statusOffset + 2 + 4

    /// The answer a request proved by `prover`'s key (nil: by none) got: its status, body
    /// and `Retry-After`.
    init(_ result: Result<HTTPResponse, GrantError>, provedBy prover: [UInt8]?) {
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = error.response
        }
        // A `200` replays with the token headers alone (`replayed`): no header to look up.
        let status = response.status.code
        self.init(
            status: status,
            retryAfterSeconds: status == 200
                ? nil : response.headers["Retry-After"].flatMap { Int($0) },
            body: response.body, provedBy: prover)
    }

    init(status: Int, retryAfterSeconds: Int? = nil, body: [UInt8], provedBy prover: [UInt8]?) {
        precondition(prover.map { $0.count == Self.thumbprintByteCount } ?? true)
        self.status = status
        self.prover = prover
        // `GrantError` clamps it to an hour; four bytes hold it either way.
        self.retryAfterSeconds = retryAfterSeconds.map { min(max($0, 1), 86_400) }
        self.body = body
    }

    /// Whether the window keeps it: a `200`, or a `400` whose `error` is `invalid_grant`
    /// when `refusals` (a refresh; a device poll keeps its tokens only). A 429, a 5xx, a
    /// 502/504 and any other answer are not kept: the next request calls the provider.
    func isKept(refusals: Bool) -> Bool {
        if status == 200 { return true }
        guard refusals, status == 400 else { return false }
        return (try? JSONParser.parse(body))?["error"]?.stringValue == "invalid_grant"
    }

    /// The plaintext to seal, bound to `key`.
    func plaintext(boundTo key: StateKey) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintextByteCount) { buffer, initialized in
            writePlaintext(boundTo: key, into: UnsafeMutableRawBufferPointer(buffer))
            initialized = plaintextByteCount
        }
    }

    /// The plaintext's length.
    var plaintextByteCount: Int { Self.headerByteCount + body.count }

    /// Writes the plaintext, bound to `key`, into the first `plaintextByteCount` bytes of
    /// `buffer`: where the key ring seals it in place (`KeyRing.sealWithoutGrant`).
    func writePlaintext(boundTo key: StateKey, into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= plaintextByteCount)
        buffer[0] = Self.version
        key.writeDigest(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1...]))
        buffer[Self.proverOffset] = prover == nil ? 0 : 1
        let thumbprint = UnsafeMutableRawBufferPointer(
            rebasing: buffer[(Self.proverOffset + 1)..<Self.statusOffset])
        if let prover {
            thumbprint.copyBytes(from: prover)
        } else {
            thumbprint.initializeMemory(as: UInt8.self, repeating: 0)
        }
        let status = UInt16(clamping: status)
        buffer.storeBytes(of: status.bigEndian, toByteOffset: Self.statusOffset, as: UInt16.self)
        let retryAfter = UInt32(clamping: retryAfterSeconds ?? 0)
        buffer.storeBytes(
            of: retryAfter.bigEndian, toByteOffset: Self.statusOffset + 2, as: UInt32.self)
        UnsafeMutableRawBufferPointer(rebasing: buffer[Self.headerByteCount..<plaintextByteCount])
            .copyBytes(from: body)
    }

    /// The answer in `plaintext`, or nil when it is not one this version wrote or was kept
    /// for another request than `key`'s.
    init?(plaintext: [UInt8], boundTo key: StateKey) {
        guard plaintext.count >= Self.headerByteCount, plaintext[0] == Self.version,
            plaintext[1...Self.digestByteCount].elementsEqual(key.digest)
        else { return nil }
        let prover: [UInt8]?
        switch plaintext[Self.proverOffset] {
        case 0: prover = nil
        case 1: prover = Array(plaintext[(Self.proverOffset + 1)..<Self.statusOffset])
        default: return nil
        }
        var offset = Self.statusOffset
        let status = Int(plaintext[offset]) << 8 | Int(plaintext[offset + 1])
        offset += 2
        var retryAfter = 0
        for byte in plaintext[offset..<(offset + 4)] { retryAfter = retryAfter << 8 | Int(byte) }
        guard (200...599).contains(status) else { return nil }
        self.init(
            status: status, retryAfterSeconds: retryAfter == 0 ? nil : retryAfter,
            body: Array(plaintext[Self.headerByteCount...]), provedBy: prover)
    }

    /// Whether a repeat proved by `prover`'s key (nil: by none) may have this answer: the
    /// same key as the request that made it, or no proof when that request had none.
    func isFor(prover requester: [UInt8]?) -> Bool {
        switch (prover, requester) {
        case (nil, nil): true
        case (let kept?, let requester?):
            kept.withUnsafeBytes { a in requester.withUnsafeBytes { a.sameBytes(as: $0) } }
        default: false
        }
    }

    /// The answer as replayed `age` after the provider gave it: a `200` with `expires_in`
    /// counted down by the whole seconds since (clamped at 0), every other member the same;
    /// any other answer as it was, status, body and `Retry-After`.
    func replayed(age: Duration) -> Result<HTTPResponse, GrantError> {
        guard status == 200 else { return .failure(failure) }
        return .success(
            HTTPResponse(
                status: .ok, headers: TokenResponseHeaders.base,
                body: Self.countedDown(body, by: age.components.seconds)))
    }

    /// The failure this answer was, as the `GrantError` that renders it again byte for
    /// byte: the service's own errors by their code (so the request's log line names
    /// them), anything else (a provider's body, a device poll's) verbatim.
    private var failure: GrantError {
        let code = (try? JSONParser.parse(body))?["error"]?.stringValue
        let reason = "the answer of the call in flight"
        let own: GrantError? =
            switch (status, code) {
            case (502, "upstream_error"): .upstreamError(reason: reason)
            case (502, "upstream_unreachable"): .upstreamUnreachable(reason: reason)
            case (504, "upstream_timeout"): .upstreamTimeout
            case (503, "temporarily_unavailable"): .temporarilyUnavailable(reason: reason)
            case (429, _): .providerThrottled(retryAfterSeconds: retryAfterSeconds, body: body)
            default: nil
            }
        if let own, own.response.body == body || status == 429 { return own }
        return .providerRejected(
            status: HTTPStatus(code: status, reasonPhrase: Self.reasonPhrase(status)), body: body)
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        default: "Error"
        }
    }

    /// `body` with its integer `expires_in` lowered by `seconds` (never below 0); unchanged
    /// when it has none. The body is one this service wrote (`ProviderTokenResponse`), so
    /// the member is found and rewritten in place, every other byte kept: a replay more
    /// than a second old costs one scan and one copy, not a parse and a serialisation.
    /// A body the scan is not sure of (a key spelled with escapes, broken structure) goes
    /// the long way, which answers the same for any JSON object.
    static func countedDown(_ body: [UInt8], by seconds: Int64) -> [UInt8] {
        guard seconds > 0 else { return body }
        let found = body.withUnsafeBufferPointer { ExpiresInMember.locate(in: $0) }
        switch found {
        case .absent:
            return body
        case .unsure:
            return countedDownByParsing(body, by: seconds)
        case .number(let range):
            guard let expiresIn = Int64(String(decoding: body[range], as: UTF8.self)) else {
                return body
            }
            var counted: [UInt8] = []
            counted.reserveCapacity(body.count)
            counted.append(contentsOf: body[..<range.lowerBound])
            counted.append(contentsOf: String(Self.lowered(expiresIn, by: seconds)).utf8)
            counted.append(contentsOf: body[range.upperBound...])
            return counted
        }
    }

    /// `countedDown` through the parser: the member found by name among the object's
    /// decoded members, the object written again.
    static func countedDownByParsing(_ body: [UInt8], by seconds: Int64) -> [UInt8] {
        guard seconds > 0, case .object(var members)? = try? JSONParser.parse(body),
            let index = members.firstIndex(where: { $0.name == "expires_in" }),
            case .number(let text) = members[index].value, let expiresIn = Int64(text)
        else { return body }
        members[index].value = .number(String(Self.lowered(expiresIn, by: seconds)))
        return JSONValue.object(members).serialized
    }

    /// Both are bounded (a provider's integer, a window of minutes), but saturate anyway.
    private static func lowered(_ expiresIn: Int64, by seconds: Int64) -> Int64 {
        let (left, overflow) = expiresIn.subtractingReportingOverflow(seconds)
        return overflow ? 0 : max(0, left)
    }
}

/// Where a JSON object's first top-level `expires_in` member holds its number, found by
/// one pass over the bytes that follows strings and nesting without building anything.
enum ExpiresInMember: Equatable {
    /// The number's bytes.
    case number(Range<Int>)
    /// No such member, its value is not a number, or the text is not an object.
    case absent
    /// A key written with escapes (it might spell the name), or a structure the pass does
    /// not follow: ask the parser.
    case unsure

    private static let name = Array(#""expires_in""#.utf8)

    static func locate(in bytes: UnsafeBufferPointer<UInt8>) -> ExpiresInMember {
        var index = skippingWhitespace(bytes, from: 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return .absent }
        var depth = 0
        // At depth 1, after `{` or `,`: the next string is a member's name.
        var nameNext = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                var end = index + 1
                var escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") {
                        escaped = true
                        end += 1
                    }
                    end += 1
                }
                guard end < bytes.count else { return .unsure }
                if depth == 1, nameNext {
                    nameNext = false
                    if escaped { return .unsure }
                    if end + 1 - index == name.count,
                        UnsafeBufferPointer(rebasing: bytes[index...end]).elementsEqual(name)
                    {
                        return value(in: bytes, after: end + 1)
                    }
                }
                index = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                nameNext = depth == 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { return .unsure }
                if depth == 0 { return .absent }
                index += 1
            case UInt8(ascii: ","):
                if depth == 1 { nameNext = true }
                index += 1
            default:
                index += 1
            }
        }
        return .unsure
    }

    /// The member's value, after its name ends at `index`: `: number`, or not a number.
    private static func value(in bytes: UnsafeBufferPointer<UInt8>, after index: Int)
        -> ExpiresInMember
    {
        var index = skippingWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return .unsure }
        index = skippingWhitespace(bytes, from: index + 1)
        guard index < bytes.count else { return .unsure }
        let first = bytes[index]
        guard first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else {
            return .absent
        }
        guard let end = JSONParser.numberEnd(in: bytes, from: index) else { return .unsure }
        return .number(index..<end)
    }

    private static func skippingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> Int
    {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }
}
