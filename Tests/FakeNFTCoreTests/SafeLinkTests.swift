import Testing
@testable import FakeNFTCore

/// What may be copied or opened: only web links, never control characters or options.
@Suite struct SafeLinkTests {
    @Test(arguments: [
        ("https://practicum.yandex.ru/ios-developer", "https://practicum.yandex.ru/ios-developer"),
        ("  http://a.example/x?y=1#z ", "http://a.example/x?y=1#z"),
        ("https://a.example/\u{1B}[201~\npwned", "https://a.example/%5B201~pwned"),
        ("HTTPS://A.example/\u{202E}txt.exe", "HTTPS://A.example/txt.exe"),
        ("https://a.example/\u{7F}\u{9B}x\u{200B}", "https://a.example/x"),
    ])
    func webLinksAreCleanedAndAccepted(input: String, expected: String) throws {
        let link = try SafeLink.check(input).get()
        #expect(link == expected)
        #expect(!link.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test(arguments: [
        ("file:///etc/passwd", SafeLink.Refusal.notWeb(scheme: "file")),
        ("--version", .malformed),
        ("javascript:alert(1)", .notWeb(scheme: "javascript")),
        ("ftp://a.example", .notWeb(scheme: "ftp")),
        ("", .empty),
        ("\u{1B}\u{7}", .empty),
        ("http://", .malformed),
        ("https://a b.example/", .malformed),
        ("a.example/page", .malformed),
    ])
    func everythingElseIsRefusedWithAReason(input: String, refusal: SafeLink.Refusal) {
        #expect(throws: refusal) { try SafeLink.check(input).get() }
        #expect(!refusal.description.isEmpty)
    }
}
