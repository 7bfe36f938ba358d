import Foundation
import Hummingbird
import Testing
import FakeNFTTesting
@testable import FakeNFTCore

/// The reader pane reads a page in the character set it is written in: a windows-1251 page
/// (common on Russian sites) reads right, whether its header or its `<meta>` says so.
@Suite struct PageCharsetTests {
    /// "Привет, мир" in windows-1251.
    static let greeting: [UInt8] = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x2C, 0x20, 0xEC, 0xE8, 0xF0]

    static func page(meta: String) -> Data {
        Data("<html><head>\(meta)<title>T</title></head><body><p>".utf8) + Data(greeting)
            + Data("</p></body></html>".utf8)
    }

    @Test func theHeaderThenTheMetaThenUTF8DecideTheCharset() {
        #expect(PageCharset.of(Data("x".utf8), contentType: "text/html; Charset=\"Windows-1251\"") == "Windows-1251")
        #expect(
            PageCharset.of(Self.page(meta: "<meta charset=\"windows-1251\">"), contentType: "text/html")
                == "windows-1251")
        #expect(
            PageCharset.of(
                Self.page(meta: "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=cp1251\">"),
                contentType: nil) == "cp1251")
        #expect(PageCharset.of(Data("<p>Привет</p>".utf8), contentType: nil) == "UTF-8")
        #expect(PageCharset.of(Self.page(meta: ""), contentType: nil) == "windows-1252", "not UTF-8, says nothing")
        #expect(PageCharset.of(Data([0xEF, 0xBB, 0xBF]) + Data("x".utf8), contentType: "text/html") == "UTF-8")
        #expect(PageCharset.of(Self.page(meta: "<meta charset=\"кои\">"), contentType: nil) == "windows-1252")
    }

    @Test(arguments: ["<meta charset=\"windows-1251\">", ""])
    func aWindows1251PageReadsRight(meta: String) {
        let document = ReadableDocument.parse(
            html: Self.page(meta: meta), baseURL: nil,
            contentType: meta.isEmpty ? "text/html; charset=windows-1251" : "text/html")
        #expect(document.blocks == [.paragraph("Привет, мир")], "\(document.blocks)")
        let unknown = ReadableDocument.parse(
            html: Data("<p>Привет</p>".utf8), baseURL: nil, contentType: "text/html; charset=no-such-set")
        #expect(unknown.blocks == [.paragraph("Привет")], "an unknown charset is read as UTF-8")
    }

    /// Through the loader: the answer's header reaches the parser.
    @Test func theLoaderPassesTheAnswersCharset() async throws {
        let router = Router()
        router.get("page") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=windows-1251"],
                body: .init(byteBuffer: .init(bytes: Self.page(meta: ""))))
        }
        try await withRouter(router) { base in
            let document = try await WebPageLoader(timeout: 10).load(base.appendingPathComponent("page"))
            #expect(document.blocks == [.paragraph("Привет, мир")])
        }
    }
}
