import Foundation
import Synchronization
import Testing
@testable import TerminalUI

/// The widgets' words cost the same on the ten-thousandth read as on the first: a list key reads
/// six, every redraw its footer's and help's, for as long as the app stays open.
@Suite struct WordingTests {
    @Test func aWordReadTenThousandTimesTakesNoDeeperStackThanTheFirst() {
        let depths = Mutex<[Int]>([])
        let wording = Wording()
        wording.give { word, arguments in
            depths.withLock { $0.append(Thread.callStackReturnAddresses.count) }
            return word.rawValue + arguments.joined()
        }
        for _ in 0..<10_000 { #expect(wording.word(.moveUp, []) == "moveUp") }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 10_000, "every read calls the words once")
        #expect(seen.last == seen.first, "frames under the words: first \(seen.first ?? 0), last \(seen.last ?? 0)")
    }

    @Test func namesStandInUntilWordsAreGivenAndTheLastGivenAreUsed() {
        let wording = Wording()
        #expect(wording.word(.pageDown, []) == "pageDown")
        wording.give { _, _ in "first" }
        wording.give { _, arguments in "second " + arguments.joined(separator: ",") }
        #expect(wording.word(.tooSmallSizes, ["60×16", "30×8"]) == "second 60×16,30×8")
    }
}
