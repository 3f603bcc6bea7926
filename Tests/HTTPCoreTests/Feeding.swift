import HTTPCore

/// Feeds test input to the incremental parsers in every way a network could deliver it:
/// whole, split once at every byte boundary, and one byte at a time. Each rule test
/// checks that every way gives the same answer.
enum Feeding {
    /// Prefix lengths to hand the parser in turn: whole, each two-part split, bytewise.
    static func schedules(count: Int) -> [[Int]] {
        var result: [[Int]] = [[count]]
        if count > 1 {
            for split in 1..<count { result.append([split, count]) }
            result.append(Array(1...count))
        }
        return result
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

enum RequestOutcome: Hashable {
    case head(RequestHead)
    case failed(HTTPParseError)
    case incomplete
}

extension RequestOutcome {
    var error: HTTPParseError? {
        if case .failed(let error) = self { return error }
        return nil
    }

    var head: RequestHead? {
        if case .head(let head) = self { return head }
        return nil
    }

    /// Parses `input` with `schedule` (growing prefixes of one buffer).
    static func parse(_ input: [UInt8], schedule: [Int], limits: HTTPLimits) -> RequestOutcome {
        var parser = RequestHeadParser(limits: limits)
        return input.withUnsafeBytes { all in
            for end in schedule {
                let prefix = UnsafeRawBufferPointer(rebasing: all[0..<end])
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
    }

    /// Every feeding's outcome; a correct parser gives one distinct value.
    static func allFeedings(_ input: [UInt8], limits: HTTPLimits = HTTPLimits())
        -> Set<RequestOutcome>
    {
        Set(
            Feeding.schedules(count: input.count).map { parse(input, schedule: $0, limits: limits) }
        )
    }
}
