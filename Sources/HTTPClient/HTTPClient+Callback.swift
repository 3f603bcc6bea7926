import HTTPCore
import Transport

extension HTTPClient {
    /// `send`, answering by callback. A caller on one of the loops with an idle pooled
    /// connection of that loop makes the exchange in place, and `completion` runs on that
    /// loop with no task (a server's handler answering by callback: docs/perf-log). Every other case
    /// (no idle connection, a caller off the loops, a pooled connection the server had
    /// closed) goes through the async `send` in a task on the loop, so waiting for a
    /// slot, connecting, TLS and retries stay in one place.
    package func send(
        _ request: HTTPClientRequest, deadline: Deadline,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        // Encoded before an idle connection is taken: a request that does not encode
        // fails in the async path, and the connection stays in the pool.
        guard !isShutDown.load(ordering: .relaxed),
            let loop = currentLoop(),
            let wire = try? Self.encode(request)
        else { return sendInTask(request, deadline: deadline, completion: completion) }
        let pool = pool(for: request.origin, on: loop)
        guard let connection = pool.takeIdle() else {
            return sendInTask(request, deadline: deadline, completion: completion)
        }
        connection.exchange(wire, method: request.method, deadline: deadline) { [self] answer in
            switch answer {
            case .success(let answer):
                if let session = answer.session { pool.session = session }
                if answer.reusable { pool.release(connection) }
                completion(.success(answer.response))
            case .failure(let failure) where failure.requestNeverSent:
                sendInTask(request, deadline: deadline, completion: completion)
            case .failure(let failure):
                completion(.failure(failure.error))
            }
        }
    }

    private func sendInTask(
        _ request: HTTPClientRequest, deadline: Deadline,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        let loop = currentLoop() ?? homeLoop(for: request.origin)
        Task(executorPreference: loop) { [self] in
            do throws(HTTPClientError) {
                completion(.success(try await send(request, deadline: deadline)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
