import HTTPCore
import HTTPServer

extension ServiceMetrics: ServerObserver {
    /// Runs on an event loop: counter increments only (the parse error series does a
    /// registry lookup, which is rare by nature: each ends a connection).
    public func observe(_ event: ServerEvent) {
        switch event {
        case .malformed(let error):
            malformed(status: Int(error.status.code), reason: "\(error)")
        case .deadlinePassed(let deadline):
            switch deadline {
            case .header: rejected(.headerTimeout)
            case .body: rejected(.bodyTimeout)
            case .idle: rejected(.idleTimeout)
            case .write: rejected(.writeTimeout)
            }
        case .unrouted(let status):
            unrouted(status: Int(status.code))
        case .connectionCapReached:
            rejected(.connectionCap)
        case .acceptResourcesExhausted:
            rejected(.acceptResources)
        case .bodyBudgetExceeded:
            rejected(.bodyBudget)
        case .clientConnectionCapReached:
            rejected(.clientConnectionCap)
        }
    }
}
