import Logging
import RESPClient
import Transport

/// The state the service's features share (CONTRACT §12), as `TokenSwapServer` builds it.
package struct ServiceState: Sendable {
    /// What the features call: this copy's memory, or the shared store behind its
    /// failure mode.
    package let store: any StateStore
    /// The shared store's wrapper, when `TOKENSWAP_STATE_URL` is set.
    package let failover: FailoverStateStore?
    /// Its client, shut down by the drain.
    let client: RESPClient?
}

extension TokenSwapServer {
    /// This copy's memory (`MemoryStateStore`, its timers on `group`) when no store is
    /// configured; else the Redis store over a client on `group`'s loops, behind
    /// `FailoverStateStore` with that memory as its fallback. Nothing is sent yet: a store
    /// that is down at start-up stops nothing (CONTRACT §12); the first failed call or
    /// PING marks it down.
    static func state(
        for configuration: ServiceConfiguration, group: EventLoopGroup,
        logger: Logger, metrics: ServiceMetrics
    ) throws(ServiceStartError) -> ServiceState {
        let memory = MemoryStateStore(
            configuration: configuration, metrics: metrics, timers: .loops(group))
        guard let settings = configuration.state else {
            return ServiceState(store: memory, failover: nil, client: nil)
        }
        let client: RESPClient
        do {
            client = try RESPClient(
                endpoint: settings.endpoint, loops: group, timeout: settings.timeout,
                caFile: configuration.caFile)
        } catch {
            throw .stateStore(error)
        }
        let redis = RedisStateStore(client: client, loops: group)
        let failover = FailoverStateStore(
            store: redis, memory: memory, mode: settings.failure,
            health: StateStoreHealth(logger: logger, metrics: metrics, location: settings.location),
            probe: { completion in redis.ping(completion: completion) })
        return ServiceState(store: failover, failover: failover, client: client)
    }
}
