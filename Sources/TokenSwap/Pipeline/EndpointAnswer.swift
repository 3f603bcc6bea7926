import HTTPCore

/// An endpoint's response, and for a token endpoint what happened (for the one log line
/// the pipeline writes per request).
public struct EndpointAnswer: Sendable {
    public var response: HTTPResponse
    public var outcome: RequestOutcome?

    public init(_ response: HTTPResponse, outcome: RequestOutcome? = nil) {
        self.response = response
        self.outcome = outcome
    }
}

/// What a token request did: which provider and grant (nil when it was refused before
/// either was known), and how it ended (`ok` or the error code of `TokenEndpointError`).
/// Never a field value: codes and tokens stay out.
public struct RequestOutcome: Sendable, Equatable {
    public var provider: String?
    public var grant: String?
    public var result: String

    public init(provider: String?, grant: String?, result: String) {
        self.provider = provider
        self.grant = grant
        self.result = result
    }
}
