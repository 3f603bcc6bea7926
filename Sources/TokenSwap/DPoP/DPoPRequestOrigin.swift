import HTTPCore
import Sealing
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a request was sent, as a proof's `htu` must name it (CONTRACT §13): the scheme
/// and host of `TOKENSWAP_PUBLIC_URL` when set; else, when the peer is a trusted proxy
/// (`TOKENSWAP_TRUSTED_PROXIES`), `X-Forwarded-Proto` and `X-Forwarded-Host` where it sent
/// them; else the connection's scheme and the `Host` field. The path is the request
/// target's, as sent.
struct DPoPRequestOrigin: Sendable {
    /// The public URL's scheme and authority as written, nil when it is not set; normalised
    /// as a request's are (`latest` keeps their normal form).
    let publicBase: (scheme: String, authority: String)?
    let trustedProxies: TrustedProxies
    /// The main port serves HTTPS itself (CONTRACT §10).
    let servesTLS: Bool
    /// The scheme and `Host` (or forwarded host, or the public URL's) of the request
    /// before, as sent, and their normal form, with that request's target and its URI:
    /// nearly every request names the same host, and an app's refreshes the same target,
    /// whose normal forms are then not worked out again. One entry, replaced by the next
    /// request that differs.
    private let latest = Latest()

    private final class Latest: Sendable {
        let entry = Mutex<Entry?>(nil)
    }

    /// What `latest` holds for a request: its whole URI, or its scheme and host's part.
    private enum Known {
        case uri(DPoPTargetURI?)
        case base(DPoPTargetURI.Base?)
    }

    private struct Entry {
        let scheme: String
        let authority: String
        let base: DPoPTargetURI.Base?
        /// Nil for a target with a query or fragment, which is not kept: its URI drops
        /// them, and a query may carry what no copy should hold on to.
        let requestTarget: String?
        let uri: DPoPTargetURI?
    }

    init(publicURL: String?, trustedProxies: TrustedProxies, servesTLS: Bool) {
        if let publicURL, let separator = publicURL.firstRange(of: "://") {
            let rest = publicURL[separator.upperBound...]
            let authority = rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
            let scheme = publicURL[..<separator.lowerBound]
            publicBase = (String(scheme), String(authority))
        } else {
            publicBase = nil
        }
        self.trustedProxies = trustedProxies
        self.servesTLS = servesTLS
    }

    /// The request's URI for the `htu` comparison, or nil when it has no usable host (no
    /// `Host`, or one that is not an authority): such a request cannot be proved.
    func target(of request: HTTPRequest) -> DPoPTargetURI? {
        if let publicBase {
            return uri(
                scheme: publicBase.scheme, authority: publicBase.authority,
                requestTarget: request.target)
        }
        var scheme = servesTLS ? "https" : "http"
        var host = Self.single(request.headers.onlyValue("Host"))
        // Without trusted proxies no peer is one: its address is not even parsed.
        if !trustedProxies.prefixes.isEmpty, let peer = request.remoteAddress,
            let address = AddressPrefix.parseAddress(peer), trustedProxies.trusts(address)
        {
            // Each forwarded field stands on its own: a proxy that terminates TLS may
            // pass the Host on unchanged and send only the scheme.
            if let proto = Self.single(request.headers.onlyValue("X-Forwarded-Proto")) {
                scheme = proto
            }
            if let forwarded = Self.single(request.headers.onlyValue("X-Forwarded-Host")) {
                host = forwarded
            }
        }
        guard let host else { return nil }
        return uri(scheme: scheme, authority: host, requestTarget: request.target)
    }

    /// The URI of a request target at a request's scheme and host, from `latest` where it
    /// holds the same texts (each normal form is a function of the texts it is made of):
    /// the whole URI when all three are its, the scheme and host's normal form when those
    /// two are. Compared byte for byte: `String`'s `==` would take a canonically equivalent
    /// spelling (a Kelvin sign for a `K`) for the host it stands beside, which the normal
    /// form refuses.
    private func uri(scheme: String, authority: String, requestTarget: String) -> DPoPTargetURI? {
        let known = latest.entry.withLock { entry -> Known? in
            guard let entry, Self.sameBytes(entry.scheme, scheme),
                Self.sameBytes(entry.authority, authority)
            else { return nil }
            guard let kept = entry.requestTarget, Self.sameBytes(kept, requestTarget) else {
                return .base(entry.base)
            }
            return .uri(entry.uri)
        }
        let base: DPoPTargetURI.Base?
        switch known {
        case .uri(let uri): return uri
        case .base(let kept): base = kept
        case nil: base = DPoPTargetURI.Base(scheme: scheme, authority: authority)
        }
        let uri = base.flatMap {
            DPoPTargetURI(base: $0, path: DPoPTargetURI.path(ofRequestTarget: requestTarget))
        }
        let hasQuery = requestTarget.utf8.contains {
            $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }
        latest.entry.withLock {
            $0 = Entry(
                scheme: scheme, authority: authority, base: base,
                requestTarget: hasQuery ? nil : requestTarget, uri: uri)
        }
        return uri
    }

    /// Whether two texts are the same bytes, compared in place.
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.withUTF8Bytes { a in
            b.withUTF8Bytes { UnsafeRawBufferPointer(a).sameBytes(as: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Whether `value` holds a `,`, found by `memchr` in the string's own storage.
    private static func hasComma(_ value: String) -> Bool {
        value.withUTF8Bytes { utf8 in
            guard let start = utf8.baseAddress, !utf8.isEmpty else { return false }
            return memchr(start, Int32(UInt8(ascii: ",")), utf8.count) != nil
        }
    }

    /// The value of a field sent once (`HTTPHeaders.onlyValue`), with one element: a list
    /// (several proxies' values) names no single origin.
    private static func single(_ value: String?) -> String? {
        guard let value, !Self.hasComma(value) else { return nil }
        // A value that starts and ends with a visible ASCII byte has no whitespace to trim
        // (the parser strips a field's own), so it is kept as it is.
        let visible: ClosedRange<UInt8> = 0x21...0x7E
        if let first = value.utf8.first, let last = value.utf8.last, visible.contains(first),
            visible.contains(last)
        {
            return value
        }
        let trimmed = value.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}
