import Testing

@testable import TokenSwapSandbox

/// The verification page's text handling (moved with the sandbox out of `DeviceGrantTests`).
@Suite struct SandboxDevicePageTests {
    @Test func htmlEscapesEverythingThatCouldBeMarkup() {
        #expect(
            HTMLText.escaped(#"<a href="x" onclick='y'>`&"#)
                == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&#96;&amp;")
        #expect(HTMLText.escaped("ab\u{0}\ncd") == "abcd")
    }

    @Test func userCodesCompareWithoutCaseOrPunctuation() {
        #expect(SandboxProvider.normalisedUserCode("bcdf-ghjk") == "BCDFGHJK")
        #expect(SandboxProvider.normalisedUserCode(" BCDF GHJK ") == "BCDFGHJK")
        #expect(SandboxProvider.displayed("BCDFGHJK") == "BCDF-GHJK")
    }
}
