import Transport

extension HTTPClientError {
    /// A failed lookup as the client reports it: resolving is part of connecting, so a
    /// name that does not resolve is `.unreachable` (502 `upstream_unreachable`,
    /// CONTRACT.md §2) and a lookup past its deadline is `.timeout(.connect)`.
    package init(_ failure: NameResolver.Failure) {
        switch failure {
        case .unresolvable(let error): self = .unreachable(reason: "\(error)")
        case .timedOut: self = .timeout(.connect)
        }
    }
}
