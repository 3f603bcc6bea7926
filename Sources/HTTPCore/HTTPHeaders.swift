/// Header fields in the order received, duplicates kept (RFC 9110 §5.3 lets a recipient
/// combine only list-based fields; a dictionary would lose the duplicates that the
/// framing rules must see). Names compare case-insensitively.
///
/// Fields of a parsed message stay byte ranges into a copy of its head and become
/// `String`s only when asked for: a request is read for a handful of fields, so the
/// rest are never decoded. Fields a handler builds are stored as values.
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Fields set by `add` (all of them once a received set is changed).
    private var built: [Field]
    /// A parsed head's bytes and each field's ranges in them; empty when built.
    private var head: [UInt8] = []
    private var ranges: [FieldRange] = []

    public init(_ fields: [(String, String)] = []) {
        built = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The fields of a parsed head, decoded only when read. `head` holds the head's bytes
    /// (the ranges are relative to its start). Values that are not UTF-8 (obs-text) have
    /// those bytes replaced by U+FFFD when read.
    public init(received head: [UInt8], ranges: [FieldRange]) {
        built = []
        self.head = head
        self.ranges = ranges
    }

    private var isReceived: Bool { !ranges.isEmpty }

    /// Every field, decoded.
    public var fields: [Field] {
        isReceived ? ranges.map { Self.field($0, in: head) } : built
    }

    public var count: Int { isReceived ? ranges.count : built.count }

    /// Room for `count` fields, so built headers fill in one allocation.
    public mutating func reserveCapacity(_ count: Int) {
        materialize()
        built.reserveCapacity(count)
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public mutating func add(name: String, value: String) {
        materialize()
        built.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        // Removing nothing would still copy shared fields (an answer's are a shared
        // constant) before the append copies them again.
        if contains(name) { remove(name: name) }
        add(name: name, value: value)
    }

    public mutating func remove(name: String) {
        materialize()
        built.removeAll { Self.namesMatch($0.name, name) }
    }

    /// The first value of the named field.
    public subscript(name: String) -> String? {
        guard isReceived else { return built.first { Self.namesMatch($0.name, name) }?.value }
        guard let range = ranges.first(where: { Self.name($0, in: head, is: name) }) else {
            return nil
        }
        return String(decoding: head[range.value], as: UTF8.self)
    }

    /// The value of the named field when exactly one field has that name, else nil (none,
    /// or several): a field that names one thing (`Host`), read without collecting values.
    public func onlyValue(_ name: String) -> String? {
        guard isReceived else {
            let values = built.lazy.filter { Self.namesMatch($0.name, name) }
            guard let first = values.first, values.dropFirst().isEmpty else { return nil }
            return first.value
        }
        var found: FieldRange?
        for range in ranges where Self.name(range, in: head, is: name) {
            guard found == nil else { return nil }
            found = range
        }
        return found.map { String(decoding: head[$0.value], as: UTF8.self) }
    }

    /// Every value of the named field, in order.
    public func values(_ name: String) -> [String] {
        guard isReceived else {
            return built.filter { Self.namesMatch($0.name, name) }.map(\.value)
        }
        // One pass, one array (none when the field is absent): not a filtered copy of the
        // ranges and then a mapped one.
        var values: [String] = []
        for range in ranges where Self.name(range, in: head, is: name) {
            values.append(String(decoding: head[range.value], as: UTF8.self))
        }
        return values
    }

    /// Every value of the named field as its bytes, in order, undecoded: slices of the
    /// received head (no copy), or a built field's UTF-8. For a value read as bytes
    /// anyway, such as a DPoP proof of a kilobyte on every request that carries one.
    public func valueBytes(_ name: String) -> [ArraySlice<UInt8>] {
        guard isReceived else {
            return built.filter { Self.namesMatch($0.name, name) }.map { Array($0.value.utf8)[...] }
        }
        var values: [ArraySlice<UInt8>] = []
        for range in ranges where Self.name(range, in: head, is: name) {
            values.append(head[range.value])
        }
        return values
    }

    public func contains(_ name: String) -> Bool {
        isReceived
            ? ranges.contains { Self.name($0, in: head, is: name) }
            : built.contains { Self.namesMatch($0.name, name) }
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// Received fields become values before they are changed.
    private mutating func materialize() {
        guard isReceived else { return }
        built = fields
        head = []
        ranges = []
    }

    /// ASCII case-insensitive comparison; field names are tokens (RFC 9110 §5.1).
    public static func namesMatch(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Over the strings' own storage when they have it (every native string).
        let contiguous: Bool?? = a.utf8.withContiguousStorageIfAvailable { a in
            b.utf8.withContiguousStorageIfAvailable { b in bytesMatch(a, b) }
        }
        return (contiguous ?? nil) ?? bytesMatch(a.utf8, b.utf8)
    }

    private static func name(_ range: FieldRange, in head: [UInt8], is name: String) -> Bool {
        // Most fields differ in length from the name looked up: no slice of the head made.
        guard range.name.count == name.utf8.count else { return false }
        return name.utf8.withContiguousStorageIfAvailable { bytesMatch(head[range.name], $0) }
            ?? bytesMatch(head[range.name], name.utf8)
    }

    private static func bytesMatch<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B)
        -> Bool
    {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    private static func field(_ range: FieldRange, in head: [UInt8]) -> Field {
        Field(
            name: String(decoding: head[range.name], as: UTF8.self),
            value: String(decoding: head[range.value], as: UTF8.self))
    }

    @inline(__always)
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
