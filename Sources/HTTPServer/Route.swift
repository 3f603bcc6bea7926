import HTTPCore

/// One endpoint: a method, an exact path, and what serves it. The one route shape from
/// the server up: the server routes `Route<HTTPHandler>`, and the product describes its
/// endpoints as `Route` of its own handler type before wrapping them into that.
public struct Route<Handler: Sendable>: Sendable {
    package let method: HTTPMethod
    package let path: String
    package let handler: Handler

    package init(_ method: HTTPMethod, _ path: String, handler: Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }

    /// The same endpoint served by `transform(handler)`.
    package func map<Other>(_ transform: (Handler) -> Other) -> Route<Other> {
        Route<Other>(method, path, handler: transform(handler))
    }
}
