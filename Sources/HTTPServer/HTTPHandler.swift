import HTTPCore

/// What serves a request: a responder, called on the event loop that owns the connection
/// with the request, that answers through `respond` exactly once (from any thread; the
/// answer is written on the loop). The server knows only this shape; `async` builds one
/// from an async function, as swift-nio layers `NIOAsyncChannel` over `ChannelHandler`.
///
/// A responder needs no task: the shape for the hot path, where an upstream exchange on
/// one of the loop's own connections answers by callback on the same thread
/// (docs/perf-log, "Callback-shaped handlers"). Either way a handler that computes for long
/// holds up the loop's other connections, so handlers keep to cheap work.
public struct HTTPHandler: Sendable {
    package typealias Responder = @Sendable (HTTPRequest, RequestContext, Respond) -> Void

    /// How a handler answers, once: `respond(response)`, or `respond.fail()` when it
    /// could not make one.
    package struct Respond: Sendable {
        let answer: @Sendable (HTTPResponse?) -> Void

        /// `answer` receives the response, or nil for a failure.
        package init(_ answer: @escaping @Sendable (HTTPResponse?) -> Void) {
            self.answer = answer
        }

        package func callAsFunction(_ response: HTTPResponse) { answer(response) }

        /// The handler failed: the server answers its 500 (`ServerError.handlerFailed`,
        /// shaped by the configured error responder), which tells the client nothing
        /// about the cause.
        package func fail() { answer(nil) }
    }

    let responder: Responder

    package init(_ responder: @escaping Responder) {
        self.responder = responder
    }

    /// Calls the responder; `respond` receives its one answer.
    package func callAsFunction(
        _ request: HTTPRequest, _ context: RequestContext, _ respond: Respond
    ) {
        responder(request, context, respond)
    }

    /// A handler that runs `handler` as a task whose executor is the connection's loop
    /// (`context.executor`): awaiting I/O frees the loop for its other connections. A
    /// thrown error becomes the server's 500 (`Respond.fail`).
    package static func async(
        _ handler: @escaping @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse
    ) -> HTTPHandler {
        HTTPHandler { request, context, respond in
            Task(executorPreference: context.executor) {
                do {
                    respond(try await handler(request, context))
                } catch {
                    respond.fail()
                }
            }
        }
    }
}

extension Route where Handler == HTTPHandler {
    /// A route served by an async function (`HTTPHandler.async`).
    package init(
        _ method: HTTPMethod, _ path: String,
        async handler:
            @escaping @Sendable (HTTPRequest, RequestContext) async throws
            -> HTTPResponse
    ) {
        self.init(method, path, handler: .async(handler))
    }
}
