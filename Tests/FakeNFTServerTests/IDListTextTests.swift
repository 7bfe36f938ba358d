import Foundation
import Testing
@testable import FakeNFTServer

/// Id lists as PostgreSQL keeps them (JSON text): written and read directly when plain, through
/// JSON otherwise, the same lists either way; text that is not such a list is refused.
struct IDListTextTests {
    static let lists: [[String]] = [
        [], [""], ["1"], ["1", "2", "95"], ["", ""], ["a,b", "c"], ["\",\"", "x"], ["quote\"d", "back\\slash"],
        ["line\nbreak", "\u{1B}[2J"], ["Пушкин", "🐸", "a/b"], ["[\"", "\"]"], [" spaced ", "tab\t"],
    ]

    @Test(arguments: lists)
    func aListReadsBackAsItWasWritten(ids: [String]) throws {
        let text = try IDListText.text(ids)
        #expect(try IDListText.list(text) == ids, "\(text)")
        #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == ids, "JSON to anyone: \(text)")
        // what JSONEncoder wrote (earlier servers; escaped slashes) reads the same
        let encoded = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
        #expect(try IDListText.list(encoded) == ids)
    }

    @Test func otherJSONSpellingsOfAListReadTheSame() throws {
        #expect(try IDListText.list(#"[ "1", "2" ]"#) == ["1", "2"])
        #expect(try IDListText.list(#"["\u0031","2"]"#) == ["1", "2"])
        #expect(try IDListText.list("[\n]") == [])
        #expect(try IDListText.list(#"["https:\/\/x\/1.png","\/"]"#) == ["https://x/1.png", "/"])
        #expect(try IDListText.list(#"["a\\b","c\/"]"#) == ["a\\b", "c/"])
    }

    @Test(arguments: [
        "", "[", "[\"]", "[\"a\"", "[\"a\"]x", "[\"a\nb\"]", "{}", "[1]", "null", "[\"a\\\"]", "[\"a\",\"b\",\"]",
    ])
    func textThatIsNotAListIsRefused(text: String) {
        #expect(throws: StoreError.self, "\(text)") { try IDListText.list(text) }
    }
}
