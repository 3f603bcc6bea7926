import TokenSwap
import TokenSwapFuzzing

// libFuzzer entry point over TokenSwap's JSON parser (it reads every provider answer and
// every JSON request body). Besides "never crash", a value that parses must survive the
// trip through the serializer: serialize, parse again, and the two values agree, and the
// serializer's text is a fixed point (serializing the reparsed value gives the same
// bytes). Surrounding whitespace must not change what parses (RFC 8259 §2).

/// The value, or nil for any refusal: only success has to agree between the two parses;
/// offsets in errors legitimately move with the padding.
private func parsed(_ bytes: [UInt8]) -> JSONValue? {
    try? FuzzEntryPoints.parseJSON(bytes).get()
}

/// Every error is a refusal the caller turns into a 4xx or 502; an offset must point into
/// the input (or just past it), never elsewhere.
private func checkError(_ error: FuzzEntryPoints.JSONRefusal, count: Int) {
    if let offset = error.offset, !(0...count).contains(offset) {
        fatalError("JSON error offset outside the input")
    }
}

/// How deep the value nests: the parser refuses more than `JSONParser.maxDepth`
/// (`FuzzEntryPoints.jsonMaxDepth`).
private func depth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
    case .object(let members): 1 + (members.map { depth($0.value) }.max() ?? 0)
    default: 1
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let value: JSONValue
    switch FuzzEntryPoints.parseJSON(bytes) {
    case .success(let result):
        value = result
    case .failure(let error):
        checkError(error, count: count)
        if parsed([0x20, 0x0A] + bytes + [0x09, 0x0D]) != nil {
            fatalError("JSON: whitespace around a refused text made it parse")
        }
        return 0
    }
    precondition(
        depth(value) <= FuzzEntryPoints.jsonMaxDepth, "JSON: nesting beyond the limit parsed")

    let text = value.serialized
    guard let again = parsed(text) else {
        fatalError("JSON: the serializer wrote text its parser refuses")
    }
    if again != value { fatalError("JSON: parse -> serialize -> parse changed the value") }
    if again.serialized != text { fatalError("JSON: serialization is not a fixed point") }
    // String equality is canonical equivalence; the bytes must survive too (a token's
    // bytes are compared exactly).
    if !sameBytes(value, again) { fatalError("JSON: a string's bytes changed in the round trip") }

    if parsed([0x20, 0x0A] + bytes + [0x09, 0x0D]) != value {
        fatalError("JSON: whitespace around the text changed the value")
    }
    return 0
}

private func sameBytes(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)), (.string(let a), .string(let b)):
        return a.utf8.elementsEqual(b.utf8)
    case (.array(let a), .array(let b)):
        return a.count == b.count && zip(a, b).allSatisfy(sameBytes)
    case (.object(let a), .object(let b)):
        return a.count == b.count
            && zip(a, b).allSatisfy {
                $0.name.utf8.elementsEqual($1.name.utf8) && sameBytes($0.value, $1.value)
            }
    default: return false
    }
}
