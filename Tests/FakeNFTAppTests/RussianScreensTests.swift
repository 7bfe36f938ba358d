import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

/// Every screen in Russian at the classic size and the smallest: snapshots, and no English word
/// on screen other than key names and the server's data (names, descriptions, links).
@MainActor @Suite struct RussianScreensTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 60, height: 16), Size(width: 40, height: 20)]
    /// Words that stay as they are in Russian: key names, units and names of things.
    static let untranslated: Set<String> = [
        "Esc", "Enter", "Tab", "Shift", "Ctrl", "PgUp", "PgDn", "Home", "End", "Space",
        "Backspace", "Delete", "F", "NFT", "NFTs", "ETH", "FakeNFT", "http", "https", "MIT", "API", "iOS",
        "fakenft", "serve", "mail",
        // the switches that turn usage events off, as they are typed
        "analytics", "false", "config", "toml", "DO", "NOT", "TRACK",
    ]

    /// Every string value of the server's JSON answers: the data the screens may show.
    static func data(_ server: any ServerUnderTest) async throws -> String {
        var texts: [String] = []
        func collect(_ value: Any) {
            switch value {
            case let text as String: texts.append(text)
            case let array as [Any]: array.forEach(collect)
            case let object as [String: Any]: object.values.forEach(collect)
            default: break
            }
        }
        for path in [
            "/api/v1/collections", "/api/v1/nft", "/api/v1/users", "/api/v1/currencies", "/api/v1/profile/1",
            "/api/v1/orders/1",
        ] {
            let (status, body) = try await server.request("GET", path)
            #expect(status == 200, "\(path)")
            collect(try JSONSerialization.jsonObject(with: body))
        }
        return texts.joined(separator: "\n").lowercased()
    }

    /// The Latin words on `screen` that are neither data nor allowed.
    static func englishWords(_ screen: String, data: String) -> [String] {
        // Command-line options (`--server`) are names, like keys.
        let screen = screen.replacingOccurrences(of: "--[a-z-]+", with: "", options: .regularExpression)
        let words = screen.split { !($0.isASCII && ($0.isLetter || $0 == "'")) }.map(String.init)
        return words.filter { word in
            word.count > 1 && !untranslated.contains(word) && !data.contains(word.lowercased())
        }
    }

    @Test func everyScreenSpeaksRussian() async throws {
        try await Language.with(.ru) {
            try await InProcessTestServer.with(imageLinks: .local(publicURL: URL(string: "http://images.test"))) {
                server async throws in
                let data = try await Self.data(server)
                try await walkEveryScreen(server) { shell, name in
                    for size in Self.sizes {
                        let text = frame(shell, size)
                        #expect(!text.contains(tr(.tooSmallTitle)), "\(name) at \(size)")
                        #expect(
                            Self.englishWords(text, data: data).isEmpty,
                            "English on \(name) at \(size): \(Self.englishWords(text, data: data))\n\(text)")
                        assertSnapshot(text, named: "ru-\(name)-\(size.width)x\(size.height)")
                    }
                }
            }
        }
    }

    /// What comes before the tabs, and About: no English but key names, the app's name and an
    /// example address.
    @Test func theFirstStartScreensSpeakRussian() async throws {
        try await Language.with(.ru) {
            try await InProcessTestServer.with { server async throws in
                @MainActor func check(_ content: any LoopContent, _ name: String) {
                    for size in Self.sizes {
                        var buffer = Buffer(size: size)
                        content.render(into: &buffer)
                        let text = buffer.text()
                        #expect(
                            Self.englishWords(text, data: "name@example.com").isEmpty,
                            "English on \(name) at \(size): \(Self.englishWords(text, data: ""))\n\(text)")
                        assertSnapshot(text, named: "ru-\(name)-\(size.width)x\(size.height)")
                    }
                }
                let onboarding = OnboardingScene()
                for page in 1...OnboardingScene.pages.count {
                    check(onboarding, "onboarding-\(page)")
                    _ = onboarding.handle(.key(.right))
                }
                let signIn = SignInScene(model: SignInModel(api: server.client()))
                check(signIn, "sign-in")
                _ = signIn.handle(.key(.up))  // the Sign in / Sign up row
                _ = signIn.handle(.key(.right))
                #expect(signIn.model.mode == .signUp)
                check(signIn, "sign-up")
                let about = AboutScreen()
                let shell = AppShell(
                    tabs: [AppShell.Tab(title: tr(.tabProfile), root: about)], effects: .toastsOnly(),
                    pictures: .placeholders())
                for size in Self.sizes {
                    let text = frame(shell, size)
                    #expect(
                        Self.englishWords(text, data: "").isEmpty,
                        "English on About at \(size): \(Self.englishWords(text, data: ""))\n\(text)")
                    assertSnapshot(text, named: "ru-about-\(size.width)x\(size.height)")
                }
            }
        }
    }

    @Test func theEnglishWordCheckCanFail() {
        #expect(Self.englishWords("Корзина · Cart is empty · Esc назад", data: "") == ["Cart", "is", "empty"])
        #expect(Self.englishWords("Beige (21) · A series of", data: "beige\na series of nfts").isEmpty)
    }

    @Test func countsAndPricesFollowRussianRules() async throws {
        await Language.with(.ru) {
            #expect(Format.count(1, .collections) == "1 коллекция")
            #expect(Format.count(3, .collections) == "3 коллекции")
            #expect(Format.count(9, .collections) == "9 коллекций")
            #expect(Format.count(21, .nfts) == "21 NFT")
            #expect(Format.part(3, of: 21, .users) == "3 из 21 пользователя")
            #expect(Format.price(3.35) == "3,35 ETH")
        }
        await Language.with(.en) {
            #expect(Format.part(3, of: 21, .nfts) == "3 of 21 NFTs")
            #expect(Format.price(3.35) == "3.35 ETH")
        }
    }
}
