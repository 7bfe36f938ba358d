import FakeNFTCore
import FakeNFTSnapshots
import FakeNFTTesting
import Foundation
import Localization
import Testing
import TerminalUI
@testable import FakeNFTApp

/// Profile's SSH keys: the row counts the account's keys as the server lists them, and its screen
/// shows each fingerprint whole with when it was added, the session's own marked; in both
/// languages at the smallest and the classic size. The shared profile has no such row.
@MainActor @Suite struct KeysScreenTests {
    @Test(arguments: [Language.en, .ru]) func theAccountsKeysAreListed(_ language: Language) async throws {
        try await Language.with(language) {
            try await TestServer.with { server async throws in
                let anna = try await server.client().signUp(
                    name: "Anna", email: "anna@example.com", password: "secret 12")
                // The same in every snapshot, and added in the order the list shows keys of one second.
                let keys = [TestSSHKey.make(seed: 1), TestSSHKey.make(seed: 2)].sorted {
                    $0.fingerprint < $1.fingerprint
                }
                for key in keys {
                    let added = try await server.answer(
                        "POST", "/api/v1/auth/keys",
                        body: "key=" + (key.line.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                        contentType: "application/x-www-form-urlencoded",
                        headers: ["X-Practicum-Mobile-Token": anna.token ?? ""])
                    #expect(added.status == 201)
                }
                let signedIn = ["X-Practicum-Mobile-Token": anna.token ?? ""]
                let answer = try await server.answer(
                    "GET", "/api/v1/auth/keys", body: nil, contentType: nil, headers: signedIn)
                let listed = try JSONDecoder().decode([AccountKey].self, from: answer.body)
                #expect(Set(listed.map(\.fingerprint)) == Set(keys.map(\.fingerprint)))
                let (context, shell, profile) = try await signedInApp(server, as: anna, signInKey: keys[0].fingerprint)
                #expect(await eventually { profile.model.keys.value != nil })
                #expect(frame(shell, Size(width: 80, height: 24)).contains(tr(.sshKeysRow, keys.count)))
                for _ in 0..<3 { _ = shell.handle(.key(.down)) }
                _ = shell.handle(.key(.enter))
                #expect(shell.currentScreen is KeysScreen)
                for size in [Size(width: 40, height: 20), Size(width: 80, height: 24)] {
                    var buffer = Buffer(size: size)  // not frame(): the times as shown
                    shell.render(into: &buffer)
                    let text = buffer.text()
                    // Read as one run of words: a fingerprint wider than the row goes on over lines.
                    func run(_ text: String) -> String {
                        text.replacingOccurrences(of: "▌", with: "").split(whereSeparator: \.isWhitespace).joined()
                    }
                    let all = run(text), mark = run(tr(.thisSessionKey))
                    let places = try listed.map { key in
                        try #require(all.range(of: key.fingerprint), "whole at \(size)\n\(text)").upperBound
                    }
                    for (index, key) in listed.enumerated() {
                        let after = all[places[index]...].prefix(run(tr(.keyAdded, Format.time(key.createdAt))).count)
                        #expect(after == run(tr(.keyAdded, Format.time(key.createdAt))), "\(size)\n\(text)")
                    }
                    let marked = try #require(all.range(of: mark), "\(size)\n\(text)").lowerBound
                    let sessionKey = try #require(listed.firstIndex { $0.fingerprint == keys[0].fingerprint })
                    #expect(places[sessionKey] < marked, "after this session's key")
                    #expect(places.allSatisfy { $0 <= places[sessionKey] || $0 > marked }, "before the next")
                    let data = "ssh keys add remove help " + keys.map(\.fingerprint).joined(separator: " ")
                    if language == .ru {
                        #expect(RussianScreensTests.englishWords(text, data: data.lowercased()).isEmpty, "\(text)")
                    }
                    assertSnapshot(
                        frame(shell, size), named: "\(language.rawValue)-ssh-keys-\(size.width)x\(size.height)")
                }
                _ = shell.handle(.key(.escape))
                #expect(shell.currentScreen is ProfileScreen)
                context.state.stop()
            }
        }
    }
}
