import FakeNFTCore
import Foundation
import Localization
import Testing
import TerminalUI
import FakeNFTSnapshots
import FakeNFTTesting
@testable import FakeNFTApp

/// Onboarding, the sign-in screen and Profile's account rows, on a real server.
@MainActor @Suite struct WelcomeTests {
    func frame(_ content: any LoopContent, _ size: Size = Size(width: 80, height: 24)) -> String {
        var buffer = Buffer(size: size)
        content.render(into: &buffer)
        return buffer.text()
    }

    func type(_ text: String, into scene: SignInScene) { for c in text { _ = scene.handle(.key(.char(c))) } }

    @Test func theLaunchScreenShowsOnlyWhenTheStartTakesLonger() {
        #expect(
            frame(LaunchScene()).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "a quick start draws nothing")
        let clock = TestClock()
        let launch = LaunchScene(clock: AppClock(clock))
        #expect(frame(launch).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        clock.advance(by: LaunchScene.delay)
        let screen = frame(launch)
        #expect(screen.contains("FakeNFT") && screen.contains("Starting the server…"))
        #expect(launch.isAnimating && !launch.isFinished)
        launch.finish()
        #expect(launch.isFinished)
        #expect(!LaunchScene().handle(.key(.char("q"))), "q quits while waiting")
    }

    @Test func onboardingTurnsItsFourPagesAndFinishesOrSkips() {
        let scene = OnboardingScene()
        #expect(frame(scene).contains("Welcome to FakeNFT") && frame(scene).contains("● ○ ○ ○"))
        assertSnapshot(frame(scene), named: "onboarding-1-80x24")
        #expect(frame(scene).split(separator: "\n").first?.hasSuffix("[ Skip (s) ]") == true, "Skip at the top right")
        _ = scene.handle(.key(.right))
        #expect(frame(scene).contains("Moving and buying"))
        _ = scene.handle(.key(.left))
        #expect(scene.page == 0)
        _ = scene.handle(.key(.enter))
        _ = scene.handle(.key(.enter))
        #expect(frame(scene, Size(width: 60, height: 16)).contains("Four tabs"))
        assertSnapshot(frame(scene, Size(width: 60, height: 16)), named: "onboarding-3-60x16")
        _ = scene.handle(.key(.enter))
        // The last page says what usage events send, where, and the three ways to turn them off.
        for size in [Size(width: 40, height: 20), Size(width: 80, height: 24)] {
            let page = frame(scene, size).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for words in [
                "Your privacy", "this shop's server", "which screens you open", "Never your account",
                "--no-analytics", "analytics = false", "DO_NOT_TRACK=1", "[ Finish (Enter) ]",
            ] {
                #expect(page.contains(words), "\(words) at \(size): \(page)")
            }
        }
        assertSnapshot(frame(scene, Size(width: 40, height: 20)), named: "onboarding-4-40x20")
        let footer = frame(scene).split(separator: "\n").last.map(String.init) ?? ""
        #expect(footer.hasPrefix("Enter finish") && !footer.contains("next"), "the last page finishes: \(footer)")
        #expect(!frame(scene).contains("Skip"))
        #expect(!scene.isFinished)
        _ = scene.handle(.key(.enter))
        #expect(scene.isFinished)
        let skipped = OnboardingScene()
        _ = skipped.handle(.key(.char("s")))
        #expect(skipped.isFinished)
        #expect(!OnboardingScene().handle(.key(.ctrl("c"))), "Ctrl-C quits")
    }

    /// The scenes before the tabs have the `?` help the tabs have, generated from their keys: F1
    /// always, `?` where it is not typed; its keys scroll it at key-repeat speed and close it.
    @Test func theScenesHaveHelpGeneratedFromTheirKeys() throws {
        let onboarding = OnboardingScene()
        _ = frame(onboarding)
        _ = onboarding.handle(.key(.char("?")))
        var help = frame(onboarding)
        for entry in OnboardingScene.keys.filter { $0.action != .previous }.helpEntries + SceneKeys.map.helpEntries {
            #expect(help.contains(entry.text), "\(entry.text)")
        }
        _ = onboarding.handle(.key(.right))  // the help takes the keys while open
        #expect(onboarding.page == 0)
        _ = onboarding.handle(.key(.escape))
        #expect(!frame(onboarding).contains(SceneKeys.map.helpEntries[0].text))
        _ = onboarding.handle(.key(.right))
        #expect(onboarding.page == 1)

        let problems = ConfigProblemsScene(problems: (1...40).map { "Problem number \($0)" })
        let small = Size(width: 60, height: 16)
        _ = frame(problems, small)
        for _ in 0..<100 { _ = problems.handle(.key(.down)) }  // no frame between: none lost, none past the end
        #expect(frame(problems, small).contains("Problem number 40"))
        for _ in 0..<11 { _ = problems.handle(.key(.up)) }
        #expect(!frame(problems, small).contains("Problem number 40"), "a page up from the end, not from past it")
        _ = problems.handle(.key(.function(1)))
        help = frame(problems, small)
        #expect(help.contains(tr(.scrollDown)) && help.contains(tr(.quit)))

        let url = try #require(URL(string: "http://127.0.0.1:9"))
        let signIn = SignInScene(model: SignInModel(api: APIClient(APIConfiguration(baseURL: url))))
        _ = frame(signIn)
        type("a?b", into: signIn)  // typed into the e-mail field
        #expect(frame(signIn).contains("a?b"))
        _ = signIn.handle(.key(.function(1)))
        help = frame(signIn)
        #expect(help.contains(tr(.signInNextField)) && help.contains(tr(.continueWithoutAccountKey)))
    }

    /// ←→ switch between Sign in and Sign up on the switch's row, and only there (in a field they
    /// move the caret), and the footer says so only there; a click on a mode chooses it.
    @Test func theModeSwitchesWhereTheFooterSaysAndByClick() throws {
        let url = try #require(URL(string: "http://127.0.0.1:9"))
        let model = SignInModel(api: APIClient(APIConfiguration(baseURL: url)))
        let scene = SignInScene(model: model)
        func footer() -> String { frame(scene).split(separator: "\n").last.map(String.init) ?? "" }
        #expect(!footer().contains(tr(.hintSwitch)), "the e-mail field has the focus: ←→ move its caret")
        type("ab", into: scene)
        _ = scene.handle(.key(.left))
        type("c", into: scene)
        #expect(model.mode == .signIn && frame(scene).contains("acb"))
        _ = scene.handle(.key(.up))  // the switch's row
        #expect(footer().contains("←→ \(tr(.hintSwitch))"))
        _ = scene.handle(.key(.right))
        #expect(model.mode == .signUp)
        _ = scene.handle(.key(.left))
        #expect(model.mode == .signIn)
        for (label, mode) in [(tr(.signUp), SignInModel.Mode.signUp), (tr(.signIn), .signIn), (tr(.signIn), .signIn)] {
            let rows = frame(scene).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let y = try #require(rows.firstIndex { $0.contains(" \(tr(.signIn)) ") && $0.contains(tr(.signUp)) })
            let x = try #require(rows[y].range(of: label)).lowerBound.utf16Offset(in: rows[y])
            _ = scene.handle(.key(.down))  // from a field too
            _ = scene.handle(.mouse(MouseEvent(kind: .click, point: Point(x: x + 1, y: y))))
            #expect(model.mode == mode, "a click on \(label)")
        }
    }

    @Test func signUpValidatesAsYouTypeThenCreatesTheAccount() async throws {
        try await InProcessTestServer.with { server async throws in
            let model = SignInModel(api: server.client())
            let scene = SignInScene(model: model)
            #expect(frame(scene).contains("Continue without an account"))
            _ = scene.handle(.key(.up))  // the Sign in / Sign up row
            _ = scene.handle(.key(.right))  // sign up
            #expect(model.mode == .signUp)
            _ = scene.handle(.key(.enter))  // its first field: the name
            type("Anna", into: scene)
            _ = scene.handle(.key(.tab))  // Tab goes to the next field, like Enter
            type("anna@example", into: scene)
            #expect(frame(scene).contains("✗ Not an e-mail address"))
            type(".com", into: scene)
            #expect(!frame(scene).contains("✗ Not an e-mail address"))
            _ = scene.handle(.key(.enter))
            type("letters", into: scene)
            #expect(frame(scene).contains("✗ At least 8 characters"))
            type("ok", into: scene)
            #expect(frame(scene).contains("✗ Letters and a digit or symbol"))
            type("1", into: scene)
            #expect(!frame(scene).contains("lettersok1"), "the password is masked")
            _ = scene.handle(.key(.enter))
            type("lettersok2", into: scene)
            #expect(frame(scene).contains("✗ The passwords differ"))
            assertSnapshot(frame(scene), named: "sign-up-problems-80x24")
            _ = scene.handle(.key(.backspace))
            type("1", into: scene)
            _ = scene.handle(.key(.enter))  // from the last field: send
            #expect(await eventually { model.outcome != nil })
            guard case .signedIn(let account) = model.outcome else {
                Issue.record("not signed in: \(model.failure?.message ?? "")")
                return
            }
            #expect(
                account.name == "Anna" && account.email == "anna@example.com"
                    && account.token?.hasPrefix("fnft_") == true)
            let user: User = try await server.get("/api/v1/users/\(account.userId)")
            #expect(user.name == "Anna" && user.nfts.isEmpty)
        }
    }

    /// A sign-in screen on `server` (sign-up when `signUp`) with `fields` typed, each followed by
    /// Enter: the last one sends the form.
    func send(_ server: any ServerUnderTest, signUp: Bool = false, _ fields: [String]) -> (SignInModel, SignInScene) {
        let model = SignInModel(api: server.client())
        let scene = SignInScene(model: model)
        // the mode row, Sign up, the name
        if signUp { [Key.up, .right, .enter].forEach { _ = scene.handle(.key($0)) } }
        for text in fields {
            type(text, into: scene)
            _ = scene.handle(.key(.enter))
        }
        return (model, scene)
    }

    /// The sign-up form with a problem in every field it checks, at every size in both languages:
    /// its button, each problem and the way on without an account are on screen whole (Russian's
    /// are wider than the column beside the labels at 40 columns, and go on from the form's edge).
    @Test(arguments: [Language.en, .ru]) func theSignUpFormIsWholeAtEverySize(_ language: Language) async throws {
        try await Language.with(language) {
            try await InProcessTestServer.with { server async throws in
                let model = SignInModel(api: server.client())
                let scene = SignInScene(model: model)
                _ = scene.handle(.key(.up))  // the Sign in / Sign up row
                _ = scene.handle(.key(.right))
                #expect(model.mode == .signUp)
                _ = scene.handle(.key(.enter))  // the name
                type("Anna", into: scene)
                _ = scene.handle(.key(.enter))
                type("anna@example", into: scene)
                _ = scene.handle(.key(.enter))
                type("lettersok", into: scene)
                _ = scene.handle(.key(.enter))
                type("x", into: scene)
                for size in [
                    Size(width: 40, height: 20), Size(width: 80, height: 24), Size(width: 120, height: 40),
                    Size(width: 200, height: 60),
                ] {
                    let text = frame(scene, size)
                    for whole in [
                        tr(.signUpButton), "✗ " + tr(.emailInvalid), "✗ " + tr(.passwordWeak),
                        "✗ " + tr(.passwordsDiffer), tr(.continueWithoutAccount),
                    ] {
                        #expect(text.contains(whole), "'\(whole)' cut at \(size):\n\(text)")
                    }
                }
            }
        }
    }

    @Test func signInFailuresAreSaidInTheAppsWords() async throws {
        try await InProcessTestServer.with { server async throws in
            let (first, _) = send(server, signUp: true, ["Anna", "anna@example.com", "secret 12", "secret 12"])
            #expect(await eventually { first.outcome != nil })
            // The same address again: taken.
            let (again, _) = send(server, signUp: true, ["Anna 2", "ANNA@example.com", "secret 13", "secret 13"])
            #expect(
                await eventually {
                    again.failure?.message == "An account with this e-mail already exists: sign in instead."
                })
            // A wrong password, in Russian.
            await Language.with(.ru) {
                let (model, scene) = send(server, ["anna@example.com", "wrong pass 1"])
                #expect(await eventually { model.failure?.message == "Неверный e-mail или пароль." })
                #expect(frame(scene).contains("Продолжить без аккаунта"))
                assertSnapshot(frame(scene, Size(width: 60, height: 16)), named: "ru-sign-in-failed-60x16")
            }
            // The right one.
            let (model, _) = send(server, ["anna@example.com", "secret 12"])
            #expect(await eventually { model.outcome != nil })
            // Esc: on without an account.
            let without = SignInModel(api: server.client())
            _ = SignInScene(model: without).handle(.key(.escape))
            guard case .withoutAccount = without.outcome else {
                Issue.record("Esc did not go on without an account")
                return
            }
        }
    }

    @Test func profileOffersLogOutWithAnAccountAndSignInWithout() async throws {
        try await TestServer.with { server async throws in
            let anna = try await server.client().signUp(
                name: "Anna", email: "anna@example.com", password: "secret 12")
            let (context, shell, profile) = try await signedInApp(server, as: anna)
            #expect(await eventually { profile.model.wallet.value != nil })
            var screen = FakeNFTAppTests.frame(shell, Size(width: 80, height: 24))
            #expect(
                screen.contains("Anna") && screen.contains("Wallet: 0 NFTs worth 0.00 ETH")
                    && screen.contains("Log out (anna@example.com)"))
            for _ in 0..<6 { _ = shell.handle(.key(.down)) }  // past My NFTs, Favorites, My orders, SSH keys, …
            _ = shell.handle(.key(.enter))
            screen = FakeNFTAppTests.frame(shell, Size(width: 80, height: 24))
            #expect(screen.contains("Log out of anna@example.com?"))
            _ = shell.handle(.key(.char("y")))
            #expect(shell.isFinished, "the tabs end: back to the sign-in screen")
            context.state.stop()

            let shared = makeContext(server)
            let sharedShell = FakeNFTTerminalApp.makeShell(
                context: AppContext(
                    services: shared.services, effects: .toastsOnly(), pictures: .placeholders(),
                    account: nil, offersAccounts: true))
            _ = sharedShell.handle(.key(.char("3")))
            let sharedProfile = try #require(sharedShell.currentScreen as? ProfileScreen)
            // no request left in flight when the server stops
            #expect(await eventually { sharedProfile.model.wallet.value != nil })
            #expect(FakeNFTAppTests.frame(sharedShell, Size(width: 80, height: 24)).contains("Sign in or sign up"))
            for _ in 0..<4 { _ = sharedShell.handle(.key(.down)) }  // About, above Sign in
            _ = sharedShell.handle(.key(.enter))
            #expect(
                await eventually {
                    FakeNFTAppTests.frame(sharedShell, Size(width: 80, height: 24)).contains("Licence: MIT")
                })
            assertSnapshot(FakeNFTAppTests.frame(sharedShell, Size(width: 80, height: 24)), named: "about-80x24")
        }
    }
}

/// Each onboarding page shows a picture under its text where there are colours and room.
@MainActor @Suite struct OnboardingPictureTests {
    @Test func everyPageHasAPictureUnderItsTextWithColours() {
        let scene = OnboardingScene(palette: .indexed240)
        for page in 0..<OnboardingScene.pages.count {
            var buffer = Buffer(size: Size(width: 80, height: 30))
            scene.render(into: &buffer)
            let text = buffer.text()
            #expect(text.contains(OnboardingScene.pages[page].title))
            let pictured = (0..<buffer.size.height).contains { y in
                (0..<buffer.size.width).contains { x in
                    if case .indexed = buffer[x, y].style.foreground { true } else { false }
                }
            }
            #expect(pictured, "page \(page + 1) has a picture")
            _ = scene.handle(.key(.right))
        }
        var plain = Buffer(size: Size(width: 80, height: 30))
        OnboardingScene().render(into: &plain)
        let coloured = (0..<30).contains { y in
            (0..<80).contains { x in if case .indexed = plain[x, y].style.foreground { true } else { false } }
        }
        #expect(!coloured, "without colours, no picture")
    }
}
