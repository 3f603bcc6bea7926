import HTTPCore

// libFuzzer entry point over HTTPCore's parsers. Besides "never crash", each input is a
// differential test: the parsers are incremental, so feeding the same bytes whole, in two
// pieces, and one byte at a time must give the same answer. A difference traps, and
// libFuzzer saves the input.

/// Where to split the input: chosen by its first byte, so the fuzzer explores splits.
private func splitPoint(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard let first = bytes.first, bytes.count > 1 else { return 0 }
    return Int(first) % bytes.count
}

private enum RequestOutcome: Equatable {
    case head(RequestHead)
    case failed(HTTPParseError)
    case incomplete
}

private func parseRequest(_ bytes: UnsafeRawBufferPointer, schedule: [Int]) -> RequestOutcome {
    var parser = RequestHeadParser()
    for end in schedule {
        let prefix = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        do throws(HTTPParseError) {
            if let layout = try parser.parse(prefix) {
                return .head(RequestHead(layout, in: prefix))
            }
        } catch {
            return .failed(error)
        }
    }
    return .incomplete
}

private enum ResponseOutcome: Equatable {
    case head(ResponseHead)
    case failed(HTTPParseError)
    case incomplete
}

private func parseResponse(
    _ bytes: UnsafeRawBufferPointer, schedule: [Int], method: HTTPMethod
) -> ResponseOutcome {
    var parser = ResponseHeadParser()
    for end in schedule {
        do throws(HTTPParseError) {
            if let head = try parser.parse(
                UnsafeRawBufferPointer(rebasing: bytes[0..<end]), requestMethod: method)
            {
                return .head(head)
            }
        } catch {
            return .failed(error)
        }
    }
    return .incomplete
}

private struct ChunkedOutcome: Equatable {
    var body: [UInt8] = []
    var consumed = 0
    var complete = false
    var error: HTTPParseError?
}

private func decodeChunked(_ bytes: UnsafeRawBufferPointer, schedule: [Int]) -> ChunkedOutcome {
    var decoder = ChunkedDecoder()
    var outcome = ChunkedOutcome()
    var start = 0
    for end in schedule where !decoder.isComplete {
        do throws(HTTPParseError) {
            let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            let used = try decoder.decode(piece, into: &outcome.body)
            outcome.consumed += used
            start += used
            if used < piece.count && !decoder.isComplete {
                fatalError("decoder stopped early without completing")
            }
        } catch {
            // How many bytes earlier calls took depends on the split; after an error only
            // the error and the data decoded before it must agree.
            outcome.error = error
            outcome.consumed = -1
            break
        }
    }
    outcome.complete = decoder.isComplete
    return outcome
}

private func schedules(_ count: Int, split: Int) -> [[Int]] {
    var result: [[Int]] = [[count]]
    if split > 0, split < count { result.append([split, count]) }
    if count > 0, count <= 512 { result.append(Array(1...count)) }
    return result
}

private func checkAgree<T: Equatable>(_ outcomes: [T], _ what: StaticString) {
    for outcome in outcomes.dropFirst() where outcome != outcomes[0] {
        fatalError("\(what): feeding the same bytes differently gave different answers")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPCore(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let plans = schedules(count, split: splitPoint(bytes))

    let requests = plans.map { parseRequest(bytes, schedule: $0) }
    checkAgree(requests, "request head")
    if case .head(let head) = requests[0] {
        precondition(head.byteCount <= count)
        if head.framing == .chunked {
            let body = UnsafeRawBufferPointer(rebasing: bytes[head.byteCount...])
            let bodyPlans = schedules(body.count, split: splitPoint(body))
            checkAgree(bodyPlans.map { decodeChunked(body, schedule: $0) }, "chunked body")
        }
    }

    checkAgree(plans.map { decodeChunked(bytes, schedule: $0) }, "chunked")

    let method: HTTPMethod = count % 2 == 0 ? .get : .head
    checkAgree(plans.map { parseResponse(bytes, schedule: $0, method: method) }, "response head")
    return 0
}
