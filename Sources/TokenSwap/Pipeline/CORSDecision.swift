/// What the CORS policy says about a request's `Origin`.
public enum CORSDecision: Sendable, Equatable {
    /// No `Origin` header: not a cross-origin browser request; nothing to add.
    case notCrossOrigin
    /// Allowed: answer with `Access-Control-Allow-Origin: <origin>` and `Vary: Origin`.
    case allowed(origin: String)
    /// Not in the allow-list: no CORS headers (the browser then refuses the response).
    case denied
}
