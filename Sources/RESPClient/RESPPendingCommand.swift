import Transport

/// A command on its way: its bytes, the caller's deadline, how many more times it may be
/// handed to another connection (only while it provably never reached the server), and
/// the completion that answers it exactly once.
struct RESPPendingCommand: Sendable {
    let wire: [UInt8]
    let deadline: Deadline
    var attemptsLeft: Int
    let completion: @Sendable (Result<RESPValue, RESPError>) -> Void

    func fail(_ error: RESPError) {
        completion(.failure(error))
    }
}
