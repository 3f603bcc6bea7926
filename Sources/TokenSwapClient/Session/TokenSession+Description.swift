extension TokenSession: CustomStringConvertible, CustomReflectable {
    /// Where the session signs in, nothing more: its state holds tokens, and its
    /// transport and store are the app's, which may hold them too.
    public nonisolated var description: String {
        "TokenSession(\(backend.endpoints.refresh.absoluteString))"
    }

    public nonisolated var customMirror: Mirror {
        Mirror(
            self, children: ["endpoints": backend.endpoints.refresh.absoluteString],
            displayStyle: .class)
    }
}
