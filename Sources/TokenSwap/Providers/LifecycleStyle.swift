/// What `RevocationStyle` and `IntrospectionStyle` share, so one configuration reader
/// serves both: the style that calls nothing, and the RFC one a bare URL implies.
protocol LifecycleStyle: RawRepresentable<String>, CaseIterable, Equatable, Sendable {
    static var unsupported: Self { get }
    static var standard: Self { get }
}

extension RevocationStyle: LifecycleStyle {
    static var unsupported: RevocationStyle { .none }
    static var standard: RevocationStyle { .rfc7009 }
}

extension IntrospectionStyle: LifecycleStyle {
    static var unsupported: IntrospectionStyle { .none }
    static var standard: IntrospectionStyle { .rfc7662 }
}
