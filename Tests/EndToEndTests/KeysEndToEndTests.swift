import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

extension EndToEnd {
    /// `[keys]` in config.toml on the real binary: the keys given work and the defaults they replace
    /// do not, the footer, help and buttons name them, a conflict is reported with its line (that
    /// action keeps its defaults), and `fakenft config --keys` lists the keys in effect.
    @Suite struct KeysEndToEndTests {
        /// In tmux, which answers the start-up probe for itself and (passthrough off, its default)
        /// never forwards the outer terminal's answer, the first Esc acts at once, and the key after
        /// it is its own (it was held as the start of that answer until the next key came).
        @Test func theFirstEscapeInTmuxActs() async throws {
            let tmux = try await Tmux()
            // The harness's `env -i` drops TMUX; the app learns it is in tmux from it.
            try await tmux.type("sh -c 'TMUX=/tmp/tmux-0/default,1,0 \(Tmux.binary); echo \"EX\"\"IT=$?\"'")
            try await tmux.waitFor("Welcome to FakeNFT")
            try await tmux.keys("s")
            try await tmux.waitFor("Continue without an account")
            try await tmux.keys("Escape")
            try await tmux.waitFor("9 collections", timeout: 5)
            try await tmux.keys("2")
            try await tmux.waitFor("3 NFTs", timeout: 5)
            try await tmux.keys("q")
            try await tmux.waitFor("EXIT=0")
        }

        /// SIGUSR1 (or Ctrl-R) reads config.toml again: a changed `[keys]` is the keys of the next
        /// frame, on the screen as it was; a bad file is reported and the running values kept.
        @Test func sigusr1ReadsTheKeysAgain() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let folder = tmux.directory.appendingPathComponent(".config/fakenft")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let config = folder.appendingPathComponent("config.toml")
            try Data("[keys]\n\"catalog.sort\" = \"o\"\n".utf8).write(to: config)
            try await tmux.launchApp()
            let footer = try await tmux.screen().split(separator: "\n").last.map(String.init) ?? ""
            #expect(footer.contains("o sort"), "\(footer)")

            try Data("[keys]\n\"catalog.sort\" = \"z\"\nshell.quit = \"x\"\n".utf8).write(to: config)
            kill(try await tmux.childPID(), SIGUSR1)
            try await tmux.waitFor("Settings reloaded from")  // said where the footer is
            try await tmux.keys("?")
            var help = try await tmux.waitFor("Keys: Catalog")
            for line in ["z", "x Ctrl-C"] { #expect(help.contains("  \(line) "), "\(line) in \(help)") }
            #expect(!help.contains("  o "), "\(help)")
            try await tmux.keys("Escape", "z")
            try await tmux.waitFor("By name")  // the sort menu, on the new key
            try await tmux.keys("Escape")

            try Data("[keys\n\"catalog.sort\" = \"y\"\n".utf8).write(to: config)
            try await tmux.keys("C-r")  // the same, from the keyboard; a file that is not TOML changes nothing
            try await tmux.waitFor("Settings not reloaded: config.toml line")
            try await tmux.keys("?")
            help = try await tmux.waitFor("Keys: Catalog")
            for line in ["z", "x Ctrl-C"] { #expect(help.contains("  \(line) "), "\(line) in \(help)") }
            try await tmux.keys("Escape", "x")
            try await tmux.waitFor("EXIT=0")
        }

        @Test func keysGivenInTheConfigFileAreTheKeysEverywhere() async throws {
            let tmux = try await Tmux(width: 100, height: 30)
            let folder = tmux.directory.appendingPathComponent(".config/fakenft")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(
                """
                [keys]
                "catalog.sort" = "o"
                shell.quit = "x"
                "list.down" = ["down", "J"]
                "cart.pay" = "P"
                "catalog.search" = "o"
                """.utf8
            ).write(to: folder.appendingPathComponent("config.toml"))
            let server = try await tmux.startServer()
            let api = APIClient(APIConfiguration(baseURL: server))
            let collections = try await api.collectionsInCatalogOrder()

            // After the welcome, the conflict is said with its line; catalog.search keeps "/".
            try await tmux.launchApp(
                "--server \(server.absoluteString)", waitingFor: "Welcome to FakeNFT", throughWelcome: false)
            try await tmux.keys("s")
            try await tmux.waitFor("line 6")
            let problems = try await tmux.screen().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(problems.contains("line 6: [keys] catalog.search: o is already catalog.sort's key"), "\(problems)")
            try await tmux.keys("Enter")
            let catalog = try await tmux.passWelcome(waitingFor: "9 collections")
            let footer = catalog.split(separator: "\n").last.map(String.init) ?? ""
            #expect(footer.contains("o sort") && footer.contains("/ search") && footer.contains("x quit"), "\(footer)")
            #expect(!footer.contains("s sort") && !footer.contains("q quit"), "\(footer)")

            try await tmux.keys("?")
            let help = try await tmux.waitFor("Keys: Catalog")
            for line in ["o", "↓ J", "x Ctrl-C"] { #expect(help.contains("  \(line) "), "\(line) in \(help)") }
            #expect(!help.contains("↓ j"), "\(help)")
            try await tmux.keys("Escape")

            // s is no key (keys are taken in order: the help after it is the Catalog's, no menu is
            // open); o sorts, and so does щ, the letter at o's place in ЙЦУКЕН.
            try await tmux.keys("s", "?")
            #expect(!(try await tmux.waitFor("Keys: Catalog").contains("By NFT count")))
            try await tmux.keys("Escape", "o")
            try await tmux.waitFor("By NFT count")
            try await tmux.keys("Escape", "щ")
            try await tmux.waitFor("By NFT count")
            try await tmux.keys("Escape")

            // J moves down the list (j does not): Enter opens the second collection.
            try await tmux.keys("j", "J", "Enter")
            try await tmux.waitFor("Catalog › \(collections[1].name)")
            try await tmux.keys("Escape")

            // The cart's button and footer name P, which pays; p does nothing.
            try await tmux.keys("2")
            let cart = try await tmux.waitFor("ETH (P)  ]")
            #expect(cart.contains("P pay"), "\(cart)")
            try await tmux.keys("p", "?")
            try await tmux.waitFor("Keys: Cart")  // still the cart's
            try await tmux.keys("Escape", "P")
            try await tmux.waitFor("Bitcoin")
            try await tmux.keys("Escape")

            try await tmux.keys("q", "?")
            #expect(!(try await tmux.waitFor("Keys: Cart").contains("EXIT=")), "q quits no more")
            try await tmux.keys("Escape", "x")
            try await tmux.waitFor("EXIT=0")

            // The marker split in the command, so that only the output matches.
            try await tmux.type("\(Tmux.binary) config --keys > keys.txt 2>&1; echo LIS\"\"TED")
            try await tmux.waitFor("LISTED")
            let listing = try String(contentsOf: tmux.directory.appendingPathComponent("keys.txt"), encoding: .utf8)
            #expect(
                listing.range(of: #"catalog\.sort +o +Sort .*\(config line 2\)"#, options: .regularExpression) != nil)
            #expect(listing.range(of: #"catalog\.search +/ +Search by name"#, options: .regularExpression) != nil)
            #expect(
                listing.range(of: #"shell\.quit +x ctrl-c +Quit +\(config line 3\)"#, options: .regularExpression)
                    != nil)
            #expect(
                listing.contains("config.toml line 6: [keys] catalog.search: o is already catalog.sort's key"),
                "\(listing)"
            )
        }
    }
}
