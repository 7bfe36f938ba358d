import Localization
import Testing
import TerminalUI
@testable import FakeNFTApp

/// TerminalUI's words come from the app's catalog, in the current language.
@MainActor
@Suite struct WidgetWordsTests {
    @Test func everyWidgetWordIsATextOfTheAppsCatalog() async {
        _ = WidgetWords.given
        for word in WidgetText.allCases { #expect(TextKey(rawValue: word.rawValue) != nil, "\(word)") }
        #expect(ListState.keys.helpEntries.map(\.text).first == "Up")
        await Language.with(.ru) {
            #expect(ListState.keys.helpEntries.map(\.text).first == "Вверх")
            #expect(ConfirmDialog.keys.hints().map(\.label).contains("отмена"))
        }
    }
}
