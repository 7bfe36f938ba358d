@testable import FakeNFTRequests
import Foundation
import Testing

/// A body's fields as `RequestFields` reads them, without Foundation's string searching.
@Suite struct RequestFieldsTests {
    /// White space at either end goes as Foundation's `whitespacesAndNewlines` takes it (Unicode's
    /// spaces, tabs, line and paragraph separators, NEL, the zero-width space), and nothing else
    /// does.
    @Test(arguments: [
        "", " ", "likes=1", " \t\r\nlikes=1,2\n", "\u{a0}\u{2028}{\"a\":1}\u{3000}\u{85}", "\u{200b}x\u{200b}",
        "\u{200c}y\u{feff}",
        "\u{1}name=a\u{7f}", "  é  ", "\u{2029}", "a b",
    ])
    func trimmingIsFoundations(text: String) {
        #expect(String(RequestFields.trimmingWhitespace(text)) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aJSONContentTypeInAnyCaseReadsJSON() throws {
        let body = Data(#"{"likes": ["1", 2], "name": null}"#.utf8)
        for type in ["application/json", "Application/JSON; charset=utf-8", "text/x-Json"] {
            let fields = try RequestFields(body: body, contentType: type)
            #expect(fields.list("likes") == ["1", "2"] && fields.string("name") == "null", "\(type)")
        }
        #expect(throws: RequestError.self) {
            try RequestFields(body: Data("likes=1".utf8), contentType: "application/JSON")
        }
        let form = try RequestFields(body: Data("  likes=1,2&name=A+b\n".utf8), contentType: "application/jso")
        #expect(form.list("likes") == ["1", "2"] && form.string("name") == "A b")
        let braced = try RequestFields(body: Data("\r\n {\"name\": \"B\"}".utf8), contentType: nil)
        #expect(braced.string("name") == "B", "a body that starts with { is JSON")
    }

    @Test func aBodyThatIsNotUTF8IsRefused() {
        #expect(throws: RequestError.self) { try RequestFields(body: Data([0x6e, 0x3d, 0xff]), contentType: nil) }
    }
}
