import Sealing
import Testing

@Suite struct Base64Tests {
    /// RFC 4648 §10's vectors, and the two characters where the alphabets differ.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: [
        ([0xFB, 0xFF] as [UInt8], "+/8="), ([0xFB, 0xEF, 0xBE], "++++"),
        ([0xFF, 0xFF, 0xFF], "////"),
    ])
    func standardAlphabet(bytes: [UInt8], encoded: String) {
        #expect(Base64.encode(bytes) == encoded)
        #expect(Base64.decode(encoded) == bytes)
    }

    /// Padding is required and only at the end; no URL-safe characters, no whitespace.
    @Test(arguments: [
        "Zg", "Zg=", "Zg===", "Zm8", "Z===", "====", "Zg==Zg==", "-_8=", "+_8=", "Zm9v ",
        " Zm9v", "Zm\n9v", "Zm9v!A==",
    ])
    func refusesMalformedText(text: String) {
        #expect(Base64.decode(text) == nil)
        #expect(Base64.decode(text, ignoringUnusedBits: true) == nil)
    }

    /// Nonzero unused bits: refused by default (one text per byte string), accepted on
    /// request as other software's decoders do.
    @Test(arguments: [
        ("Zh==", [UInt8(ascii: "f")]), ("Zv==", [UInt8(ascii: "f")]),
        ("Zm9=", Array("fo".utf8)), ("Zm+=", [0x66, 0x6F]),
    ])
    func unusedBits(text: String, bytes: [UInt8]) {
        #expect(Base64.decode(text) == nil)
        #expect(Base64.decode(text, ignoringUnusedBits: true) == bytes)
    }
}
