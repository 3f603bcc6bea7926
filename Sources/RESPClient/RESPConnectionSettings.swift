import TLS
import Transport

/// What every pool of one client shares: where the store is, how to log in, the TLS
/// context (nil for `redis://`), the name resolver, the bounds and the deadlines.
struct RESPConnectionSettings: Sendable {
    let endpoint: RESPEndpoint
    let tlsContext: TLSClientContext?
    let resolver: NameResolver
    let limits: RESPLimits
    /// The client's per-command timeout, also the budget of one connection attempt
    /// (resolve, connect, TLS, AUTH, SELECT).
    let timeoutSeconds: Double
    let maxConnectionsPerLoop: Int
    /// Commands one connection may have in flight before the pool opens another or,
    /// at its cap, refuses with `.poolExhausted`.
    let maxInFlightPerConnection: Int
    /// Commands that may wait for a connection to open, per loop.
    let maxWaitersPerLoop: Int

    /// AUTH and SELECT, as the connection sends them right after connecting
    /// (AUTH's two-argument form needs Redis ≥ 6, as ACL users do).
    var setup: [(wire: [UInt8], step: RESPConnection.SetupStep)] {
        var steps: [(wire: [UInt8], step: RESPConnection.SetupStep)] = []
        if let password = endpoint.password {
            var auth: [[UInt8]] = [Array("AUTH".utf8)]
            if let user = endpoint.username { auth.append(Array(user.utf8)) }
            auth.append(password)
            if let wire = try? RESPCommandEncoder.encode(auth) {
                steps.append((wire, .authenticate(secret: password)))
            }
        }
        if endpoint.database != 0,
            let wire = try? RESPCommandEncoder.encode([
                Array("SELECT".utf8), Array(String(endpoint.database).utf8),
            ])
        {
            steps.append((wire, .select))
        }
        return steps
    }
}
