import HTTPCore
import Testing

@testable import TokenSwap

@Suite struct TokenRequestFieldsTests {
    static func request(_ contentType: String?, _ body: String) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return HTTPRequest(
            method: .post, target: "/v1/swap", headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "code=abc&client_id=x&grant_type=y", "abc"),
        ("Application/X-WWW-Form-Urlencoded; charset=UTF-8", "code=abc", "abc"),
        ("application/json", #"{"code":"abc","client_id":7,"extra":{"x":[1]}}"#, "abc"),
        ("application/json; charset=utf-8", #"{"code":"a\u0062c"}"#, "abc"),
        ("application/x-www-form-urlencoded", "code=a%62c", "abc"),
    ])
    func readsCode(contentType: String, body: String, code: String) throws {
        #expect(try TokenRequestFields.decode(Self.request(contentType, body))["code"] == code)
    }

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "code="),
        ("application/x-www-form-urlencoded", "code=(null)"),
        ("application/x-www-form-urlencoded", "code=%28null%29"),
        ("application/x-www-form-urlencoded", "other=1"),
        ("application/json", #"{"code":""}"#),
        ("application/json", #"{"code":"(null)"}"#),
        ("application/json", #"{"code":null}"#),
        ("application/json", "{}"),
    ])
    func emptyAndNullCountAsMissing(contentType: String, body: String) throws {
        #expect(try TokenRequestFields.decode(Self.request(contentType, body))["code"] == nil)
    }

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
        ("Application/JSON", "application/json"),
        (" application/json\t", "application/json"),
        ("application/json ; charset=utf-8", "application/json"),
        ("text/plain;x", "text/plain"),
        ("", ""),
        ("t\u{E9}xt/plain", "t\u{E9}xt/plain"),
    ])
    func theMediaTypeIsTheLowerCasedEssence(contentType: String, essence: String) {
        #expect(TokenRequestFields.mediaType(contentType) == essence)
    }

    @Test func noContentTypeAndNoBodyIsAnEmptyForm() throws {
        #expect(try TokenRequestFields.decode(Self.request(nil, ""))["code"] == nil)
    }

    @Test(
        arguments: [
            ("text/plain", "code=abc"), ("multipart/form-data; boundary=x", "--x"),
            (nil, "code=abc"),
            ("application/jsonx", "{}"),
        ] as [(String?, String)])
    func otherContentTypesAre415(contentType: String?, body: String) {
        #expect(throws: GrantError.unsupportedMediaType) {
            try TokenRequestFields.decode(Self.request(contentType, body))
        }
    }

    @Test(arguments: [
        ("application/x-www-form-urlencoded", "code=%zz"),
        ("application/x-www-form-urlencoded", "code=a&code=b"),
        ("application/x-www-form-urlencoded", "refresh_token=a&refresh_token=a"),
        ("application/json", "{\"code\":"),
        ("application/json", "[\"code\"]"),
        ("application/json", #"{"code":1}"#),
        ("application/json", #"{"code":"a","code":"b"}"#),
    ])
    func malformedIsInvalidRequest(contentType: String, body: String) {
        #expect {
            try TokenRequestFields.decode(Self.request(contentType, body))
        } throws: { error in
            guard case .invalidRequest = error as? GrantError else { return false }
            return true
        }
    }

    /// Fields compare as a set: the same names with the same values, whatever their order
    /// in the body or the body's type; a missing, extra or different field is unequal.
    @Test func fieldsAreEqualWhenTheirNamesAndValuesAre() throws {
        let form = "application/x-www-form-urlencoded"
        let decoded = try TokenRequestFields.decode(
            Self.request(form, "code=c&redirect_uri=r&client_id=ignored"))
        #expect(decoded == TokenRequestFields(["redirect_uri": "r", "code": "c"]))
        #expect(
            decoded
                == (try TokenRequestFields.decode(
                    Self.request("application/json", #"{"redirect_uri":"r","code":"c"}"#))))
        #expect(decoded != TokenRequestFields(["code": "c"]))
        #expect(decoded != TokenRequestFields(["code": "c", "redirect_uri": "x"]))
        #expect(decoded != TokenRequestFields(["code": "c", "redirect_uri": "r", "scope": "s"]))
        #expect(TokenRequestFields([:]) == (try TokenRequestFields.decode(Self.request(nil, ""))))
    }

    @Test func duplicatesOfUnknownFieldsAreIgnored() throws {
        let fields = try TokenRequestFields.decode(
            Self.request("application/x-www-form-urlencoded", "client_id=a&client_id=b&code=c"))
        #expect(fields["code"] == "c")
    }
}
