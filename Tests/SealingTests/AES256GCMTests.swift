import Testing

@testable import Sealing

@Suite struct AES256GCMTests {
    @Test(arguments: NISTVectors.encrypt)
    func encryptionMatchesNIST(_ vector: GCMVector) throws {
        let testCase = try #require(GCMCase(vector))
        let sealed = try testCase.seal()
        #expect(sealed.ciphertext == testCase.ciphertext)
        #expect(sealed.tag == testCase.tag)
        #expect(try testCase.open() == testCase.plaintext)
    }

    @Test(arguments: NISTVectors.decryptPass)
    func decryptionMatchesNIST(_ vector: GCMVector) throws {
        let testCase = try #require(GCMCase(vector))
        #expect(try testCase.open() == testCase.plaintext)
    }

    @Test(arguments: NISTVectors.decryptFail)
    func decryptionRefusesNISTFailCases(_ vector: GCMVector) throws {
        let testCase = try #require(GCMCase(vector))
        #expect(throws: SealingError.invalidToken) { try testCase.open() }
    }

    @Test(arguments: NISTVectors.decryptPass)
    func anyFlippedTagBitFails(_ vector: GCMVector) throws {
        let original = try #require(GCMCase(vector))
        for bit in 0..<(original.tag.count * 8) {
            var testCase = original
            testCase.flip(tagBit: bit)
            #expect(throws: SealingError.invalidToken) { try testCase.open() }
        }
    }
}
