import Sealing

// libFuzzer entry point over sealed-token opening (CONTRACT §4, §7): every input is
// presented, as text, to `KeyRing.open` under every context of a small set (refresh-token
// and device-code kinds; providers and clients chosen so that "ab"+"c" and "a"+"bc" are
// both there), and sealed as a plaintext and opened again. Checks, besides "never crash":
// - opening fails only with `invalidToken`, and at most one context opens a text;
// - what opens reseals and reopens to the same plaintext, and says truthfully whether
//   the active key sealed it (an older key's token opens in a ring that has it only);
// - a Substring slice of a larger string opens exactly as the same text on its own;
// - any plaintext seals, as layout version 2 with a new unbound family (or is refused as
//   too long only when its token would pass its kind's limit: 4096 characters, 65,536 for
//   a kept answer), and opens to the same bytes, with a grant, under its context and no
//   other.
//
// Fixed test keys, written here in the clear: they seal nothing but fuzz inputs.

private let activeKey = "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
private let olderKey = "k0:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"
private func keyRing(_ text: String) -> KeyRing {
    do {
        return try KeyRing(parsing: text)
    } catch {
        fatalError("sealed: the fixed test keys do not parse")
    }
}

/// After a rotation: k1 active, k0 still opens.
private let ring = keyRing(activeKey + "," + olderKey)
/// Before it: k0 alone.
private let oldRing = keyRing(olderKey)

private let contexts: [SealingContext] = ["spotify", "ab", "a"].flatMap { provider in
    ["client", "c", "bc"].flatMap { client in
        SealedKind.allCases.map { SealingContext(provider: provider, clientID: client, kind: $0) }
    }
}

/// The token's text length for a plaintext of `count` bytes under a 2-character kid, in
/// layout version 2 with an unbound grant (flags 1, family 16, start 8, generation 8).
private func sealedTextLength(_ count: Int) -> Int {
    let bytes = 2 + 2 + 12 + 33 + count + 16
    return (bytes / 3) * 4 + [0, 2, 3][bytes % 3]
}

/// The longest token text of `kind` (`SealedTokenLayout.maxTextLength(_:)`).
private func maxTextLength(_ kind: SealedKind) -> Int {
    kind == .keptAnswer ? 65_536 : 4096
}

private func opened(_ ring: KeyRing, _ text: Substring, _ context: SealingContext) -> OpenedToken? {
    do {
        return try ring.open(text, context: context)
    } catch .invalidToken {
        return nil
    } catch {
        fatalError("sealed: opening failed with something other than invalidToken")
    }
}

private func checkPresented(_ text: String) {
    var openedUnder: SealingContext?
    for context in contexts {
        guard let token = opened(ring, Substring(text), context) else { continue }
        if openedUnder != nil { fatalError("sealed: one text opened under two contexts") }
        openedUnder = context
        guard token.keyID == "k1" || token.keyID == "k0",
            token.sealedWithActiveKey == (token.keyID == "k1")
        else { fatalError("sealed: wrong key id or active-key flag") }
        // The refresh handler's reseal (CONTRACT §4: tokens under older keys drain away).
        guard let resealed = try? ring.seal(token.plaintext, context: context),
            let again = opened(ring, Substring(resealed), context),
            again.plaintext == token.plaintext, again.sealedWithActiveKey
        else { fatalError("sealed: an opened plaintext did not reseal and reopen") }
        let before = opened(oldRing, Substring(text), context)
        if (before != nil) != (token.keyID == "k0")
            || (before.map { $0.plaintext != token.plaintext } ?? false)
        {
            fatalError("sealed: the ring before rotation disagrees")
        }
    }
    // The same characters inside a larger string, as a form or JSON value arrives. Cut
    // by scalars, not Characters: a text that starts with a combining mark forms one
    // Character with the "~" before it.
    let padded = "~" + text + "~"
    let slice = Substring(padded.unicodeScalars.dropFirst().dropLast())
    for context in contexts.prefix(2) {
        let whole = opened(ring, Substring(text), context)
        let sliced = opened(ring, slice, context)
        if whole?.plaintext != sliced?.plaintext || whole?.keyID != sliced?.keyID {
            fatalError("sealed: a Substring opened differently from its String")
        }
    }
}

private func checkRoundTrip(_ plaintext: [UInt8], contextIndex: Int) {
    let context = contexts[contextIndex % contexts.count]
    let sealed: String
    do {
        sealed = try ring.seal(plaintext, context: context)
    } catch .plaintextTooLong {
        if sealedTextLength(plaintext.count) <= maxTextLength(context.kind) {
            fatalError("sealed: a plaintext refused as too long fits the limit")
        }
        return
    } catch {
        fatalError("sealed: sealing failed")
    }
    guard sealed.utf8.count == sealedTextLength(plaintext.count),
        sealed.utf8.count <= maxTextLength(context.kind)
    else {
        fatalError("sealed: the token's length is not the layout's")
    }
    guard let token = opened(ring, Substring(sealed), context), token.plaintext == plaintext,
        token.keyID == "k1", token.sealedWithActiveKey, token.grant?.thumbprint == nil,
        token.grant?.generation == 0
    else { fatalError("sealed: seal -> open did not give the plaintext back") }
    for other in contexts where other != context {
        if opened(ring, Substring(sealed), other) != nil {
            fatalError("sealed: a token opened under another context")
        }
    }
    if opened(oldRing, Substring(sealed), context) != nil {
        fatalError("sealed: a token opened in a ring without its key")
    }
    // Text plaintexts (refresh tokens, device envelopes) take the String path.
    if let text = String(validating: plaintext, as: UTF8.self) {
        guard let sealedText = try? ring.seal(text, context: context),
            opened(ring, Substring(sealedText), context)?.plaintext == plaintext
        else { fatalError("sealed: a String plaintext did not round-trip") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSealed(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    checkPresented(String(decoding: bytes, as: UTF8.self))
    checkRoundTrip(bytes, contextIndex: count)
    return 0
}
