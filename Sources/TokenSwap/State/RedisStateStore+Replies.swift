import RESPClient

/// What each of `RedisStateStore`'s commands and scripts answers, checked: anything else
/// (a type the script never returns, a number out of range, a word it does not say) is a
/// `StateStoreError` for the operation. The error never quotes the reply: a reply may
/// hold a kept answer.
extension RedisStateStore {
    static func unexpected(_ operation: String) -> StateStoreError {
        StateStoreError(operation: operation, reason: "unexpected reply")
    }

    static func expectInteger(_ value: RESPValue, operation: String)
        -> Result<Int64, StateStoreError>
    {
        guard case .integer(let number) = value else { return .failure(unexpected(operation)) }
        return .success(number)
    }

    /// An array of exactly `count` integers.
    static func integers(_ value: RESPValue, count: Int, operation: String)
        -> Result<[Int64], StateStoreError>
    {
        guard case .array(let items?) = value, items.count == count else {
            return .failure(unexpected(operation))
        }
        var numbers: [Int64] = []
        for item in items {
            guard case .integer(let number) = item else { return .failure(unexpected(operation)) }
            numbers.append(number)
        }
        return .success(numbers)
    }

    /// The claim script: `{'claimed'}`, `{'in_flight'}` or `{'kept', answer, age ms}`.
    static func refreshClaim(_ value: RESPValue, operation: String)
        -> Result<RefreshClaim, StateStoreError>
    {
        guard case .array(let items?) = value, case .bulkString(let word?)? = items.first else {
            return .failure(unexpected(operation))
        }
        switch (word, items.count) {
        case (Array("claimed".utf8), 1): return .success(.claimed)
        case (Array("in_flight".utf8), 1): return .success(.inFlight)
        case (Array("kept".utf8), 3):
            guard case .bulkString(let answer?) = items[1], !answer.isEmpty,
                case .integer(let age) = items[2], age >= 0
            else { return .failure(unexpected(operation)) }
            return .success(.kept(answer: answer, age: .milliseconds(age)))
        default:
            return .failure(unexpected(operation))
        }
    }

    /// The bucket script's take: `{1}` or `{0, seconds}` (1 to a day).
    static func rateDecision(_ value: RESPValue) -> Result<RateDecision, StateStoreError> {
        guard case .array(let items?) = value else { return .failure(unexpected("take")) }
        if items == [.integer(1)] { return .success(.allowed) }
        guard items.count == 2, items[0] == .integer(0), case .integer(let seconds) = items[1],
            (1...Int64(TokenBucket.longestRetryAfterSeconds)).contains(seconds)
        else { return .failure(unexpected("take")) }
        return .success(.limited(retryAfterSeconds: Int(seconds)))
    }

    /// The poll script: `{0, interval}` or `{1, raised}`, an interval within
    /// `1...longestIntervalSeconds`.
    static func pollDecision(_ value: RESPValue)
        -> Result<DevicePollSchedule.Decision, StateStoreError>
    {
        integers(value, count: 2, operation: "poll").flatMap { numbers in
            guard let interval = interval(numbers[1]) else { return .failure(unexpected("poll")) }
            switch numbers[0] {
            case 0: return .success(.poll(interval: interval))
            case 1: return .success(.slowDown(interval: interval))
            default: return .failure(unexpected("poll"))
            }
        }
    }

    /// The slow-down script: the raised interval, or -1 for no entry.
    static func slowedInterval(_ number: Int64) -> Result<Int?, StateStoreError> {
        if number == -1 { return .success(nil) }
        guard let interval = interval(number) else { return .failure(unexpected("slow_down")) }
        return .success(interval)
    }

    private static func interval(_ number: Int64) -> Int? {
        (1...Int64(DevicePollSchedule.longestIntervalSeconds)).contains(number) ? Int(number) : nil
    }

    /// `SET … NX`: `OK` when set, the null reply when the key was there.
    static func inserted(_ value: RESPValue) -> Result<Bool, StateStoreError> {
        switch value {
        case .simpleString("OK"): .success(true)
        case .bulkString(nil): .success(false)
        default: .failure(unexpected("insert"))
        }
    }

    /// The generation script: the generation before, as decimal text.
    static func generation(_ value: RESPValue) -> Result<UInt64, StateStoreError> {
        guard case .bulkString(let bytes?) = value, !bytes.isEmpty, bytes.count <= 20,
            bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = UInt64(String(decoding: bytes, as: UTF8.self))
        else { return .failure(unexpected("raise_generation")) }
        return .success(number)
    }
}
