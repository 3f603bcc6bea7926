import Testing

@testable import TestSupport

@Suite struct ListeningSocketsTests {
    @Test func aProcNetAddressReadsAsHostAndPort() {
        #expect(ListeningSockets.address("0100007F:1F90")?.description == "127.0.0.1:8080")
        #expect(ListeningSockets.address("0200007F:0050")?.description == "127.0.0.2:80")
        #expect(ListeningSockets.address("00000000:FFFF")?.description == "0.0.0.0:65535")
        #expect(ListeningSockets.address("0100007F") == nil)
        #expect(ListeningSockets.address("100007F:1F90") == nil)
        #expect(ListeningSockets.address("0100007F:1FFFF") == nil)
    }
}
