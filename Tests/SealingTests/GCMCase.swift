@testable import Sealing

/// A vector's fields as bytes; a typo in the hex fails the test instead of crashing it.
struct GCMCase {
    let key, iv, plaintext, associatedData, ciphertext, tag: [UInt8]

    init?(_ vector: GCMVector) {
        guard let key = Hex.decode(vector.key), let iv = Hex.decode(vector.iv),
            let plaintext = Hex.decode(vector.plaintext),
            let associatedData = Hex.decode(vector.associatedData),
            let ciphertext = Hex.decode(vector.ciphertext), let tag = Hex.decode(vector.tag)
        else { return nil }
        (self.key, self.iv, self.plaintext) = (key, iv, plaintext)
        (self.associatedData, self.ciphertext, self.tag) = (associatedData, ciphertext, tag)
    }

    func seal() throws(SealingError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: AES256GCM.tagByteCount)
        let result = withInputs { key, iv, associatedData, plaintext, _ in
            ciphertext.withUnsafeMutableBytes { ciphertextOut in
                tag.withUnsafeMutableBytes { tagOut in
                    Result { () throws(SealingError) in
                        try AES256GCM.seal(
                            key: key, nonce: iv, associatedData: associatedData,
                            plaintext: plaintext, ciphertext: ciphertextOut, tag: tagOut)
                    }
                }
            }
        }
        try result.get()
        return (ciphertext, tag)
    }

    func open() throws(SealingError) -> [UInt8] {
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let result = withInputs { key, iv, associatedData, _, ciphertext in
            tag.withUnsafeBytes { tag in
                plaintext.withUnsafeMutableBytes { output in
                    Result { () throws(SealingError) in
                        try AES256GCM.open(
                            key: key, nonce: iv, associatedData: associatedData,
                            ciphertext: ciphertext, tag: tag, plaintext: output)
                    }
                }
            }
        }
        try result.get()
        return plaintext
    }

    /// Lends the key, IV, associated data, plaintext and ciphertext as raw buffers.
    private func withInputs<R>(
        _ body: (
            UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer,
            UnsafeRawBufferPointer, UnsafeRawBufferPointer
        ) -> R
    ) -> R {
        key.withUnsafeBytes { key in
            iv.withUnsafeBytes { iv in
                associatedData.withUnsafeBytes { associatedData in
                    plaintext.withUnsafeBytes { plaintext in
                        ciphertext.withUnsafeBytes { ciphertext in
                            body(key, iv, associatedData, plaintext, ciphertext)
                        }
                    }
                }
            }
        }
    }
}

extension GCMCase {
    mutating func flip(tagBit bit: Int) {
        var tag = self.tag
        tag[bit / 8] ^= 1 << UInt8(bit % 8)
        self = GCMCase(
            key: key, iv: iv, plaintext: plaintext, associatedData: associatedData,
            ciphertext: ciphertext, tag: tag)
    }

    init(
        key: [UInt8], iv: [UInt8], plaintext: [UInt8], associatedData: [UInt8],
        ciphertext: [UInt8], tag: [UInt8]
    ) {
        (self.key, self.iv, self.plaintext) = (key, iv, plaintext)
        (self.associatedData, self.ciphertext, self.tag) = (associatedData, ciphertext, tag)
    }
}
