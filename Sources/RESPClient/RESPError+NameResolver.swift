import Transport

extension RESPError {
    /// A failed lookup of the store's host as the client reports it (CONTRACT §12):
    /// a name that does not resolve is `.connectFailed`, a lookup past the connection
    /// attempt's deadline `.timedOut`.
    package init(_ failure: NameResolver.Failure) {
        switch failure {
        case .unresolvable(let error): self = .connectFailed(reason: "\(error)")
        case .timedOut: self = .timedOut
        }
    }
}
