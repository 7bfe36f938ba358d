import Testing
@testable import TerminalUI

/// What the app acts on of one read: typing as it came, a flood's Ctrl-C, `q` and Esc only,
/// Ctrl-C first, the last of several resizes.
@Suite struct InputBacklogTests {
    @Test func typingIsKeptAsItCame() {
        let typed: [TerminalEvent] = "search me".map { .key(.char($0)) } + [.key(.enter), .paste("x")]
        #expect(InputBacklog.fair(typed) == typed)
        // a terminal without bracketed paste types a paste as keys: a long link is kept whole
        let link: [TerminalEvent] = String(repeating: "https://example.org/a", count: 10).map { .key(.char($0)) }
        #expect(link.count == 210 && InputBacklog.fair(link) == link)
    }

    @Test func aFloodKeepsOnlyTheKeysThatLeaveAndSaysHowManyWent() {
        let flood: [TerminalEvent] =
            Array(repeating: .key(.char("j")), count: 500) + [.key(.escape), .paste("p")]
            + Array(repeating: .key(.char("k")), count: 500) + [.key(.char("q"))]
        #expect(InputBacklog.fair(flood) == [.keysDropped(1_000), .key(.escape), .paste("p"), .key(.char("q"))])
        let exactly = Array(repeating: TerminalEvent.key(.down), count: InputBacklog.maxKeys)
        #expect(InputBacklog.fair(exactly) == exactly, "as many as a read may hold")
    }

    @Test func ctrlCActsFirstAndResizesAreCoalesced() {
        let read: [TerminalEvent] = [
            .resize(Size(width: 80, height: 24)), .key(.char("a")), .resize(Size(width: 90, height: 30)),
            .key(.ctrl("c")), .resize(Size(width: 100, height: 40)),
        ]
        #expect(InputBacklog.fair(read) == [.key(.ctrl("c")), .key(.char("a")), .resize(Size(width: 100, height: 40))])
    }
}
