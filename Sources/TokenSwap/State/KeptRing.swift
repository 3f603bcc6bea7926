/// The sealed kept answers of one shard of the replay table (CONTRACT §12), one after another
/// in one byte buffer used as a ring, instead of one heap allocation each.
///
/// Answers leave the window in the order they were kept (the oldest evicted first, at the
/// entry cap, at the byte budget, or when their window ends), so a new answer is written
/// where the last one ended and the oldest make room at the other end: a plain refresh with
/// a full table allocates and frees nothing here, and the loop thread that keeps an answer
/// never frees one another thread allocated. The table's entry holds the answer's `Span`;
/// the ring's own record of it (its key, its span, whether the table still holds it) lets
/// the shard drop the table's entry when the ring must overwrite a live answer.
///
/// Positions are logical, counted from the ring's start and never reused, so a span stays
/// valid while the buffer grows (growing copies the live part to the start of the new
/// buffer, a quarter larger each time, so a full table wastes little of it). An answer
/// never wraps around the buffer's end: when it would, the bytes up to the end are
/// skipped. An answer released or dropped is zeroed at once: nothing is left to read,
/// sealed or not.
///
/// Answers are written and zeroed by plain stores. Non-temporal ones (bypassing the
/// caches, as a ring larger than the last-level cache might suggest) were measured the
/// dearer: their fence waits for the bytes to reach memory on every answer (docs/perf-log,
/// session 11).
struct KeptRing: Sendable {
    /// Where a kept answer lies: its logical start and length, and its record's number.
    struct Span: Sendable, Equatable {
        let start: Int
        let sequence: Int
        private let length: UInt32

        init(start: Int, count: Int, sequence: Int) {
            self.start = start
            self.sequence = sequence
            self.length = UInt32(truncatingIfNeeded: count)
        }

        var count: Int { Int(length) }
    }

    /// The ring's record of one answer: the table's slot that holds it, and `live` while
    /// the table is known to hold it (a table that drops it without saying so, an expired
    /// entry, is asked when the record is reached: `ReplayShard`).
    struct Record: Sendable {
        fileprivate(set) var span: Span
        fileprivate(set) var slot: Int32
        fileprivate(set) var live: Bool

        fileprivate static let none = Record(
            span: Span(start: 0, count: 0, sequence: -1), slot: -1, live: false)
    }

    /// The most bytes the live answers hold together, and the buffer's usual limit: the
    /// shard's part of the table's byte budget (`MemoryStateStore.defaultReplayByteBudget`).
    /// One answer larger than it is kept alone, in a buffer of its size.
    let byteBudget: Int
    /// The first buffer's size (smaller when the budget is): a quiet shard holds little.
    static let initialCapacity = 16 * 1024

    private var storage: [UInt8] = []
    /// The logical position at the buffer's start (modulo its size).
    private var origin = 0
    /// The logical position where the next answer goes.
    private var head = 0
    /// The records, oldest first from `firstRecord`, in a circle of a power of two in size
    /// (doubled when full).
    private var records: [Record] = []
    private var firstRecord = 0
    private(set) var recordCount = 0
    private var nextSequence = 0
    /// Bytes of the answers whose records are live.
    private(set) var liveByteCount = 0

    init(byteBudget: Int) {
        self.byteBudget = max(1, byteBudget)
    }

    /// The buffer's size.
    var capacity: Int { storage.count }
    /// The oldest record not yet dropped (live or not).
    var oldest: Record? { recordCount > 0 ? records[firstRecord] : nil }
    /// The whole buffer (for tests: what a released answer leaves behind).
    var buffer: [UInt8] { storage }

    /// The copy of the answer at `span`; nil when it is not (or no longer) live.
    func bytes(_ span: Span) -> [UInt8]? {
        guard let index = index(of: span), records[index].live else { return nil }
        let start = physical(span.start)
        return Array(storage[start..<(start + span.count)])
    }

    /// Whether `count` bytes fit at the head now, without dropping or growing.
    func hasRoom(for count: Int) -> Bool { start(for: count) != nil }

    /// Whether the buffer may grow to make room for `count` bytes: it is smaller than the
    /// budget (or than an answer larger than the budget).
    func canGrow(for count: Int) -> Bool { capacity < max(byteBudget, count) }

    /// Writes an answer of `count` bytes at the head as the newest record, the bytes
    /// written by `write` where they are kept (a kept answer sealed in place: no copy of it
    /// elsewhere); its table slot follows (`assignSlot`). Nil when there is no room
    /// (`hasRoom`), when `count` is longer than a span can say, or when `write` fails,
    /// which leaves no record and the bytes zeroed.
    mutating func append(count: Int, write: (UnsafeMutableRawBufferPointer) -> Bool)
        -> Span?
    {
        guard count <= UInt32.max, let start = start(for: count) else { return nil }
        let offset = physical(start)
        let written = storage.withUnsafeMutableBytes { buffer in
            guard offset + count <= buffer.count else { return false }
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
            guard write(target) else {
                target.initializeMemory(as: UInt8.self, repeating: 0)
                return false
            }
            return true
        }
        guard written else { return nil }
        head = start + count
        let span = Span(start: start, count: count, sequence: nextSequence)
        nextSequence += 1
        if recordCount == records.count { growRecords() }
        records[(firstRecord + recordCount) & (records.count - 1)] = Record(
            span: span, slot: -1, live: true)
        recordCount += 1
        liveByteCount += count
        return span
    }

    /// The table's slot that holds the newest answer.
    mutating func assignSlot(_ slot: Int) {
        guard recordCount > 0 else { return }
        records[(firstRecord + recordCount - 1) & (records.count - 1)].slot = Int32(
            truncatingIfNeeded: slot)
    }

    /// Marks the answer at `span` no longer held by the table (removed, replaced, evicted),
    /// and zeroes it; its bytes are reused when the oldest end reaches them. A span already
    /// released or dropped is ignored.
    mutating func release(_ span: Span) {
        guard let index = index(of: span), records[index].live else { return }
        records[index].live = false
        liveByteCount -= span.count
        zero(span)
    }

    /// Drops the oldest record (zeroed when it was live) and answers it.
    @discardableResult
    mutating func dropOldest() -> Record? {
        guard let record = oldest else { return nil }
        if record.live {
            liveByteCount -= record.span.count
            zero(record.span)
        }
        records[firstRecord] = .none
        firstRecord = (firstRecord + 1) & (records.count - 1)
        recordCount -= 1
        // Empty: the next answer starts at the buffer's start, no bytes skipped.
        if recordCount == 0 { origin = head }
        return record
    }

    /// A larger buffer for `count` more bytes (`canGrow`): a quarter larger, at least the
    /// first size and what the live part and `count` need, at most the budget or `count`
    /// itself; the live part is copied to its start. An empty ring whose buffer is larger
    /// than the budget (it held one larger answer) gets a smaller one back.
    mutating func grow(for count: Int) {
        let used = head - tail
        let limit = max(byteBudget, count)
        let size = min(limit, max(Self.initialCapacity, capacity + capacity / 4, used + count))
        var grown = [UInt8](repeating: 0, count: size)
        if used > 0 {
            let start = physical(tail)
            let first = min(used, capacity - start)
            grown.withUnsafeMutableBufferPointer { target in
                storage.withUnsafeBufferPointer { source in
                    guard let target = target.baseAddress, let source = source.baseAddress else {
                        return
                    }
                    target.update(from: source + start, count: first)
                    (target + first).update(from: source, count: used - first)
                }
            }
        }
        storage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        storage = grown
        origin = tail
    }

    /// Replaces an empty ring's buffer that is larger than `count` and the budget need
    /// (it held one answer larger than the budget) by none: the next answer grows a new one.
    mutating func shrinkIfEmpty(for count: Int) {
        guard recordCount == 0, capacity > max(byteBudget, count) else { return }
        storage = []
        origin = head
    }

    /// The logical position of the oldest byte still in use.
    private var tail: Int { oldest?.span.start ?? head }

    /// Where `count` bytes would start: at the head, or at the buffer's start when they
    /// would cross its end (the bytes up to the end skipped); nil when there is no room.
    private func start(for count: Int) -> Int? {
        guard capacity > 0 else { return nil }
        let used = head - tail
        let toEnd = capacity - physical(head)
        if count <= toEnd { return used + count <= capacity ? head : nil }
        return used + toEnd + count <= capacity ? head + toEnd : nil
    }

    private func physical(_ position: Int) -> Int {
        (position - origin) % capacity
    }

    private func index(of span: Span) -> Int? {
        let offset = span.sequence - (nextSequence - recordCount)
        guard offset >= 0, offset < recordCount else { return nil }
        let index = (firstRecord + offset) & (records.count - 1)
        return records[index].span == span ? index : nil
    }

    private mutating func growRecords() {
        var grown = [Record](repeating: .none, count: max(64, records.count * 2))
        for offset in 0..<recordCount {
            grown[offset] = records[(firstRecord + offset) & (records.count - 1)]
        }
        records = grown
        firstRecord = 0
    }

    private mutating func zero(_ span: Span) {
        guard span.count > 0 else { return }
        let start = physical(span.start)
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, start + span.count <= buffer.count else { return }
            (base + start).update(repeating: 0, count: span.count)
        }
    }
}
