import HTTPCore
import TokenSwap
import TokenSwapFuzzing

// libFuzzer entry point over the form decoder (every swap, refresh, device and lifecycle
// request body) and `TokenRequestFields` decoding of form and JSON bodies. Checks, besides
// "never crash":
// - `FormURLEncoding.decode` agrees byte for byte with a plain reference decoder of the
//   WHATWG rules as CONTRACT §2 narrows them (`%` must start two hex digits, the result
//   must be UTF-8), errors included;
// - decoded pairs survive `encode` and a second `decode` unchanged;
// - `TokenRequestFields.decode` gives exactly the fields those pairs (or that JSON object)
//   hold, refuses a field the service reads that appears twice, and answers an unknown
//   media type 415, whatever the body.

private typealias Pairs = [(name: [UInt8], value: [UInt8])]

private enum ReferenceError: Error, Equatable {
    case malformedPercentEscape(pairIndex: Int)
    case invalidUTF8(pairIndex: Int)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
}

private func referenceComponent(_ raw: ArraySlice<UInt8>, _ pairIndex: Int) -> Result<
    [UInt8], ReferenceError
> {
    var out: [UInt8] = []
    var index = raw.startIndex
    while index < raw.endIndex {
        let byte = raw[index]
        if byte == UInt8(ascii: "+") {
            out.append(0x20)
            index += 1
        } else if byte == UInt8(ascii: "%") {
            guard index + 2 < raw.endIndex, let high = hexValue(raw[index + 1]),
                let low = hexValue(raw[index + 2])
            else { return .failure(.malformedPercentEscape(pairIndex: pairIndex)) }
            out.append(high << 4 | low)
            index += 3
        } else {
            out.append(byte)
            index += 1
        }
    }
    guard String(validating: out, as: UTF8.self) != nil else {
        return .failure(.invalidUTF8(pairIndex: pairIndex))
    }
    return .success(out)
}

private func referenceDecode(_ body: [UInt8]) -> Result<Pairs, ReferenceError> {
    var pairs: Pairs = []
    for raw in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
        let equals = raw.firstIndex(of: UInt8(ascii: "="))
        let name = raw[..<(equals ?? raw.endIndex)]
        let value = equals.map { raw[($0 + 1)...] } ?? []
        switch (referenceComponent(name, pairs.count), referenceComponent(value, pairs.count)) {
        case (.failure(let error), _), (.success, .failure(let error)): return .failure(error)
        case (.success(let name), .success(let value)): pairs.append((name, value))
        }
    }
    return .success(pairs)
}

private func bytes(_ pairs: [(name: String, value: String)]) -> Pairs {
    pairs.map { (Array($0.name.utf8), Array($0.value.utf8)) }
}

private func same(_ lhs: Pairs, _ rhs: Pairs) -> Bool {
    lhs.count == rhs.count
        && zip(lhs, rhs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
}

private func request(_ contentType: String?, _ body: [UInt8]) -> HTTPRequest {
    HTTPRequest(
        method: .post, target: "/v1/refresh",
        headers: HTTPHeaders(contentType.map { [("Content-Type", $0)] } ?? []), body: body)
}

/// What `TokenRequestFields` must make of these pairs: the fields the service reads, nil
/// when one of them appears twice (`invalid_request`).
private func expectedFields(_ pairs: Pairs, reading names: Set<String>) -> TokenRequestFields? {
    var values: [String: String] = [:]
    for pair in pairs {
        let name = String(decoding: pair.name, as: UTF8.self)
        guard names.contains(name) else { continue }
        guard values.updateValue(String(decoding: pair.value, as: UTF8.self), forKey: name) == nil
        else { return nil }
    }
    return TokenRequestFields(values)
}

/// The same for a JSON body: an object whose read members are strings or null.
private func expectedFields(json body: [UInt8], reading names: Set<String>) -> TokenRequestFields? {
    guard case .object(let members)? = try? FuzzEntryPoints.parseJSON(body).get() else {
        return nil
    }
    var values: [String: String] = [:]
    for member in members where names.contains(member.name) {
        switch member.value {
        case .string(let text): values[member.name] = text
        case .null: continue
        default: return nil
        }
    }
    return TokenRequestFields(values)
}

private func decoded(_ request: HTTPRequest, _ names: Set<String>) -> TokenRequestFields? {
    do {
        return try TokenRequestFields.decode(request, reading: names)
    } catch .invalidRequest {
        return nil
    } catch {
        fatalError("fields: a body refused with something other than invalid_request")
    }
}

private let nameSets: [Set<String>] = [
    TokenRequestFields.knownNames,
    TokenRequestFields.knownNames.union(TokenRequestFields.tokenEndpointNames),
    TokenRequestFields.lifecycleNames,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForm(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = Array(UnsafeRawBufferPointer(start: start, count: count))

    let reference = referenceDecode(body)
    var pairs: Pairs?
    do {
        let decoded = bytes(try FormURLEncoding.decode(body))
        guard case .success(let expected) = reference, same(decoded, expected) else {
            fatalError("form: decode differs from the reference decoder")
        }
        pairs = decoded
    } catch {
        let expected: ReferenceError =
            switch error {
            case .malformedPercentEscape(let index): .malformedPercentEscape(pairIndex: index)
            case .invalidUTF8(let index): .invalidUTF8(pairIndex: index)
            }
        guard case .failure(let referenceError) = reference, referenceError == expected else {
            fatalError("form: decode refused differently from the reference decoder")
        }
    }
    // The same bytes from a non-contiguous collection take the copying path.
    do {
        let viaCopy = try FormURLEncoding.decode(body.lazy.map { $0 })
        guard let pairs, same(bytes(viaCopy), pairs) else {
            fatalError("form: a non-contiguous body decoded differently")
        }
    } catch {
        if pairs != nil { fatalError("form: a non-contiguous body was refused") }
    }

    if let pairs {
        let strings = pairs.map {
            (
                name: String(decoding: $0.name, as: UTF8.self),
                value: String(decoding: $0.value, as: UTF8.self)
            )
        }
        guard let again = try? FormURLEncoding.decode(FormURLEncoding.encode(strings)),
            same(bytes(again), pairs)
        else { fatalError("form: decode -> encode -> decode changed the pairs") }
        for pair in strings {
            let text =
                FormURLEncoding.encodeComponent(pair.name) + "="
                + FormURLEncoding.encodeComponent(pair.value)
            guard let back = try? FormURLEncoding.decode(Array(text.utf8)), back.count == 1,
                same(bytes(back), [(Array(pair.name.utf8), Array(pair.value.utf8))])
            else { fatalError("form: encodeComponent does not decode back") }
        }
    }

    for names in nameSets {
        let formFields = pairs.flatMap { expectedFields($0, reading: names) }
        for contentType in [
            "application/x-www-form-urlencoded",
            "Application/X-WWW-Form-URLEncoded ; charset=UTF-8",
        ] where decoded(request(contentType, body), names) != formFields {
            fatalError("form: fields differ from the decoded pairs")
        }
        let jsonFields = expectedFields(json: body, reading: names)
        for contentType in ["application/json", " APPLICATION/JSON;charset=utf-8"]
        where decoded(request(contentType, body), names) != jsonFields {
            fatalError("json: fields differ from the parsed object")
        }
        for contentType in ["text/plain", "application/jsonx", "multipart/form-data"] {
            do {
                _ = try TokenRequestFields.decode(request(contentType, body), reading: names)
                fatalError("fields: an unsupported media type was decoded")
            } catch .unsupportedMediaType {
            } catch {
                fatalError("fields: an unsupported media type was not a 415")
            }
        }
        // No Content-Type: an empty body is an empty form; anything else is a 415.
        do {
            let fields = try TokenRequestFields.decode(request(nil, body), reading: names)
            if !body.isEmpty || fields != TokenRequestFields([:]) {
                fatalError("fields: a body without Content-Type was decoded")
            }
        } catch .unsupportedMediaType {
            if body.isEmpty { fatalError("fields: an empty body without Content-Type was a 415") }
        } catch {
            fatalError("fields: a body without Content-Type was not a 415")
        }
    }
    return 0
}
