import Sealing
import Transport

/// `TOKENSWAP_TRUSTED_PROXIES`, and which address a request is counted against.
///
/// The TCP peer is the client, unless the peer is a trusted proxy: then the client is
/// the right-most address of `X-Forwarded-For` that is not itself a trusted proxy. Each
/// proxy appends the address it received from, so entries left of the first untrusted
/// one were written by the client and prove nothing; walking from the right, stopping
/// at the first untrusted hop, is what a client cannot forge.
public struct TrustedProxies: Sendable {
    let prefixes: [AddressPrefix]

    /// Entries that do not parse are skipped (the configuration has validated them).
    public init(_ entries: [String]) {
        prefixes = entries.compactMap { AddressPrefix($0.trimmingWhitespace()) }
    }

    func trusts(_ address: IPAddress) -> Bool {
        prefixes.contains { $0.contains(address) }
    }

    /// The address to rate limit: canonical text of an IP, or `unknown` when the server
    /// gave no peer.
    /// - Parameter forwardedFor: every `X-Forwarded-For` field value, in order.
    package func clientAddress(peer: String?, forwardedFor: [String]) -> String {
        guard let peer, let peerAddress = AddressPrefix.parseAddress(peer) else {
            return peer ?? "unknown"
        }
        return client(of: peerAddress, forwardedFor: forwardedFor).description
    }

    /// The address `clientAddress` names, parsed; nil when the server gave no peer or one
    /// that is no IP address. `forwardedFor` is read only when the peer is a trusted proxy,
    /// so a request straight from its client costs no copy of its fields.
    package func clientIPAddress(peer: String?, forwardedFor: () -> [String]) -> IPAddress? {
        guard let peer, let peerAddress = AddressPrefix.parseAddress(peer) else { return nil }
        guard trusts(peerAddress) else { return peerAddress }
        return client(of: peerAddress, forwardedFor: forwardedFor())
    }

    /// The right-most address of `forwardedFor` that is not a trusted proxy, when the peer
    /// is one; else the peer.
    private func client(of peerAddress: IPAddress, forwardedFor: [String]) -> IPAddress {
        guard trusts(peerAddress), !forwardedFor.isEmpty else { return peerAddress }
        // Several fields are one comma-separated list (RFC 9110 §5.3).
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        var nearest = peerAddress
        for hop in hops.reversed() {
            guard let address = Self.hopAddress(hop) else {
                // A hop that is not an address: nothing left of it can be believed; the
                // last trusted proxy is the best we know.
                break
            }
            nearest = address
            if !trusts(address) { break }
        }
        return nearest
    }

    /// `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1` or `[2001:db8::1]:443`, spaces trimmed.
    static func hopAddress(_ hop: Substring) -> IPAddress? {
        let text = String(hop).trimmingWhitespace()
        if let address = AddressPrefix.parseAddress(text) { return address }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return AddressPrefix.parseAddress(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.firstIndex(of: ":"), text.firstIndex(of: ".") != nil,
            text[text.index(after: colon)...].allSatisfy(\.isNumber)
        {
            return AddressPrefix.parseAddress(text[..<colon])
        }
        return nil
    }
}
