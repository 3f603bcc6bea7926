/// The Lua scripts behind `RedisStateStore` (CONTRACT §12): each is one atomic step on the
/// server, so two copies racing for the same key never both win, and each reads the time
/// from the server (`TIME`), the one clock every copy shares (a copy's monotonic clock
/// means nothing to another copy). Redis ≥ 5 replicates a script's effects, not the
/// script, so reading `TIME` before a write is allowed (Redis 6 is the floor, §12).
///
/// Every script's reply is checked by `RedisStateStore+Replies`: anything else is a
/// `StateStoreError`, never a crash.
struct StateScript: Sendable, Hashable {
    let name: String
    let body: String

    /// The server's time in whole milliseconds (`TIME` is seconds and microseconds).
    private static let now = """
        local clock = redis.call('TIME')
        local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
        """

    /// Claims a refresh (single flight): free → marked in flight for `ARGV[1]` ms, and
    /// `{'claimed'}`; in flight → `{'in_flight'}`; settled → `{'kept', answer, age ms}`.
    ///
    /// A script rather than `SET key marker NX PX`: a claim that loses must answer what
    /// is there (in flight, or the kept answer and its age) in the same atomic step; a
    /// `GET` after a failed `SET NX` could see the key settled, freed or expired in
    /// between, and a third round trip would be needed to tell.
    static let claim = StateScript(
        name: "claim",
        body: """
            local state = redis.call('HGET', KEYS[1], 's')
            if not state then
              redis.call('HSET', KEYS[1], 's', 'f')
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              return {'claimed'}
            end
            if state == 'f' then return {'in_flight'} end
            \(now)
            local at = tonumber(redis.call('HGET', KEYS[1], 't')) or now
            local age = now - at
            if age < 0 then age = 0 end
            return {'kept', redis.call('HGET', KEYS[1], 'a') or '', age}
            """)

    /// Ends a claim: with `ARGV[2]` (a sealed answer) kept for `ARGV[1]` ms and stamped
    /// with the server's time; without it (or with no time to keep it), the key is freed.
    static let settle = StateScript(
        name: "settle",
        body: """
            redis.call('DEL', KEYS[1])
            if #ARGV < 2 or tonumber(ARGV[1]) < 1 then return 1 end
            \(now)
            redis.call('HSET', KEYS[1], 's', 'k', 'a', ARGV[2], 't', now)
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            return 1
            """)

    /// A token bucket (`TokenBucket`'s algorithm) in a hash: `k` tokens, `u` when last
    /// brought up to date (server ms). `ARGV[1]` tokens per millisecond, `ARGV[2]` the
    /// burst, `ARGV[3]` `take` or `give`, `ARGV[4]` the longest `Retry-After` in seconds.
    /// `take` answers `{1}` (allowed) or `{0, seconds}`; a refused take leaves the bucket
    /// as it was. The key expires when the bucket would be full again (a full bucket is
    /// the same as none), at most a day later: memory on the server stays bounded by the
    /// clients active within that time.
    static let bucket = StateScript(
        name: "bucket",
        body: """
            \(now)
            local rate = tonumber(ARGV[1])
            local burst = tonumber(ARGV[2])
            local longest = tonumber(ARGV[4])
            local tokens = tonumber(redis.call('HGET', KEYS[1], 'k'))
            local updated = tonumber(redis.call('HGET', KEYS[1], 'u'))
            if tokens == nil or updated == nil then
              if ARGV[3] == 'give' then return {1} end
              tokens = burst
              updated = now
            end
            if now > updated then
              tokens = math.min(burst, tokens + (now - updated) * rate)
              updated = now
            end
            local answer
            if ARGV[3] == 'give' then
              tokens = math.min(burst, tokens + 1)
              answer = {1}
            elseif tokens >= 1 then
              tokens = tokens - 1
              answer = {1}
            else
              local wait = longest
              if rate > 0 then wait = math.min(longest, math.ceil((1 - tokens) / rate / 1000)) end
              if wait < 1 then wait = 1 end
              return {0, wait}
            end
            local refill = longest * 1000
            if rate > 0 then refill = math.min(refill, math.ceil((burst - tokens) / rate)) end
            if refill < 1 then refill = 1 end
            redis.call('HSET', KEYS[1], 'k', string.format('%.17g', tokens), 'u', updated)
            redis.call('PEXPIRE', KEYS[1], string.format('%d', refill))
            return answer
            """)

    /// A device poll (`DevicePollSchedule.poll`'s rules): `i` the interval in seconds, `p`
    /// the last poll (server ms). `ARGV[1]` the initial interval, `ARGV[2]` the lifetime
    /// in ms, `ARGV[3]` the step (5 s), `ARGV[4]` the longest interval (an hour). Answers
    /// `{0, interval}` (poll the provider) or `{1, raised}` (`slow_down`).
    static let poll = StateScript(
        name: "poll",
        body: """
            \(now)
            local step = tonumber(ARGV[3])
            local longest = tonumber(ARGV[4])
            local interval = tonumber(redis.call('HGET', KEYS[1], 'i'))
            local last = tonumber(redis.call('HGET', KEYS[1], 'p'))
            if interval == nil or last == nil then
              local initial = tonumber(ARGV[1])
              if tonumber(ARGV[2]) >= 1 then
                redis.call('HSET', KEYS[1], 'i', initial, 'p', now)
                redis.call('PEXPIRE', KEYS[1], ARGV[2])
              end
              return {0, initial}
            end
            local tooSoon = now < last + interval * 1000
            if tooSoon then
              interval = math.min(math.min(math.max(interval, 1), longest) + step, longest)
            end
            redis.call('HSET', KEYS[1], 'i', interval, 'p', now)
            if tooSoon then return {1, interval} end
            return {0, interval}
            """)

    /// The provider said `slow_down`: raises `i` by `ARGV[1]` up to `ARGV[2]`; answers the
    /// new interval, or -1 when there is no entry.
    static let slowDown = StateScript(
        name: "slow_down",
        body: """
            local interval = tonumber(redis.call('HGET', KEYS[1], 'i'))
            if interval == nil then return -1 end
            local longest = tonumber(ARGV[2])
            interval = math.min(math.min(math.max(interval, 1), longest) + tonumber(ARGV[1]), longest)
            redis.call('HSET', KEYS[1], 'i', interval)
            return interval
            """)

    /// Raises a family's newest generation to `ARGV[1]` (kept `ARGV[2]` ms) when higher;
    /// answers the generation before, as decimal text. Compared as text (length, then
    /// digits): a UInt64 does not fit Lua's doubles.
    static let raiseGeneration = StateScript(
        name: "raise_generation",
        body: """
            local old = redis.call('GET', KEYS[1]) or '0'
            local new = ARGV[1]
            if #new > #old or (#new == #old and new > old) then
              redis.call('SET', KEYS[1], new, 'PX', ARGV[2])
            end
            return old
            """)

    static let all: [StateScript] = [claim, settle, bucket, poll, slowDown, raiseGeneration]
}
