import COpenSSL

extension KeyRing {
    /// Seals `plaintext` for `context` under the active key; the result is base64url
    /// text laid out as `SealedTokenLayout` describes.
    public func seal(_ plaintext: [UInt8], context: SealingContext) throws(SealingError)
        -> String
    {
        let key = activeKey
        let keyID = Array(key.id.utf8)
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyID.count)
        let nonceStart = headerCount
        let ciphertextStart = nonceStart + SealedTokenLayout.nonceByteCount
        let tagStart = ciphertextStart + plaintext.count
        let total = tagStart + SealedTokenLayout.tagByteCount
        // Never issue a token that `open` would refuse for its length.
        guard Base64URL.encodedLength(byteCount: total) <= SealedTokenLayout.maxTextLength
        else { throw .plaintextTooLong }

        var sealed = [UInt8](repeating: 0, count: total)
        sealed[0] = SealedTokenLayout.version
        sealed[1] = UInt8(keyID.count)
        sealed.replaceSubrange(2..<headerCount, with: keyID)
        let result: Result<Void, SealingError> = sealed.withUnsafeMutableBytes { buffer in
            let nonce = UnsafeMutableRawBufferPointer(rebasing: buffer[nonceStart..<ciphertextStart])
            guard let nonceBase = nonce.baseAddress,
                RAND_bytes(nonceBase, Int32(nonce.count)) == 1
            else { return .failure(.cryptoUnavailable) }
            let associatedData = SealedTokenLayout.associatedData(
                header: UnsafeRawBufferPointer(rebasing: buffer[..<headerCount]), context: context)
            return associatedData.withUnsafeBytes { associatedData in
                plaintext.withUnsafeBytes { plaintext in
                    Result { () throws(SealingError) in
                        try key.withBytes { keyBytes throws(SealingError) in
                            try AES256GCM.seal(
                                key: keyBytes, nonce: UnsafeRawBufferPointer(nonce),
                                associatedData: associatedData, plaintext: plaintext,
                                ciphertext: UnsafeMutableRawBufferPointer(
                                    rebasing: buffer[ciphertextStart..<tagStart]),
                                tag: UnsafeMutableRawBufferPointer(rebasing: buffer[tagStart...]))
                        }
                    }
                }
            }
        }
        try result.get()
        return Base64URL.encode(sealed)
    }

    /// Seals the UTF-8 bytes of `plaintext`.
    public func seal(_ plaintext: String, context: SealingContext) throws(SealingError)
        -> String
    {
        try seal(Array(plaintext.utf8), context: context)
    }

    /// Opens a sealed token for `context`. Every failure that the input can cause is
    /// `.invalidToken`, and no plaintext leaves this function unless the tag verified.
    public func open(_ sealed: Substring, context: SealingContext) throws(SealingError)
        -> OpenedToken
    {
        // Bounded before decoding, so a huge input costs nothing but this comparison.
        guard sealed.utf8.count <= SealedTokenLayout.maxTextLength,
            let bytes = Base64URL.decode(sealed),
            bytes.count >= SealedTokenLayout.minimumByteCount,
            bytes[0] == SealedTokenLayout.version
        else { throw .invalidToken }
        let keyIDLength = Int(bytes[1])
        let headerCount = SealedTokenLayout.headerByteCount(keyIDLength: keyIDLength)
        let nonceStart = headerCount
        let ciphertextStart = nonceStart + SealedTokenLayout.nonceByteCount
        let tagStart = bytes.count - SealedTokenLayout.tagByteCount
        guard (1...Self.maxKeyIDLength).contains(keyIDLength), ciphertextStart <= tagStart,
            let key = keys.first(where: { $0.id.utf8.elementsEqual(bytes[2..<headerCount]) })
        else { throw .invalidToken }

        let plaintextCount = tagStart - ciphertextStart
        var plaintext = [UInt8](repeating: 0, count: plaintextCount)
        let result: Result<Void, SealingError> = bytes.withUnsafeBytes { buffer in
            let associatedData = SealedTokenLayout.associatedData(
                header: UnsafeRawBufferPointer(rebasing: buffer[..<headerCount]), context: context)
            return associatedData.withUnsafeBytes { associatedData in
                plaintext.withUnsafeMutableBytes { output in
                    Result { () throws(SealingError) in
                        try key.withBytes { keyBytes throws(SealingError) in
                            try AES256GCM.open(
                                key: keyBytes,
                                nonce: UnsafeRawBufferPointer(
                                    rebasing: buffer[nonceStart..<ciphertextStart]),
                                associatedData: associatedData,
                                ciphertext: UnsafeRawBufferPointer(
                                    rebasing: buffer[ciphertextStart..<tagStart]),
                                tag: UnsafeRawBufferPointer(rebasing: buffer[tagStart...]),
                                plaintext: output)
                        }
                    }
                }
            }
        }
        if case .failure(let error) = result {
            // Unauthenticated plaintext must not linger where a later bug could read it.
            plaintext.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            throw error
        }
        return OpenedToken(
            plaintext: plaintext, keyID: key.id, sealedWithActiveKey: key === activeKey)
    }

    /// Opens a sealed token given as a String.
    public func open(_ sealed: String, context: SealingContext) throws(SealingError)
        -> OpenedToken
    {
        try open(Substring(sealed), context: context)
    }
}
