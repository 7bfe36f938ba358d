import Testing
@testable import Localization

/// The catalog's tables against each other, the plural rules and the number format.
@Suite struct CatalogTests {
    @Test(arguments: Language.allCases) func everyKeyHasATextInEveryLanguage(_ language: Language) {
        let table = Catalog.table(language)
        let missing = TextKey.allCases.filter { (table[$0] ?? "").isEmpty }
        #expect(missing.isEmpty, "\(language) has no text for \(missing)")
    }

    @Test func placeholdersAreTheSameInBothLanguages() {
        for key in TextKey.allCases {
            let english = Catalog.english[key] ?? "", russian = Catalog.russian[key] ?? ""
            let englishForms = english.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let russianForms = russian.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let expected = Set(englishForms.flatMap(Catalog.placeholders))
            for form in englishForms + russianForms {
                #expect(
                    Set(Catalog.placeholders(form)) == expected,
                    "\(key): “\(form)” has other placeholders than \(expected.sorted())")
            }
            // A plural entry has every form of its language; any other entry has one.
            if englishForms.count > 1 || russianForms.count > 1 {
                #expect(englishForms.count == Catalog.pluralForms(.en), "\(key) in English")
                #expect(russianForms.count == Catalog.pluralForms(.ru), "\(key) in Russian")
            }
        }
    }

    @Test(arguments: [
        (1, "1 коллекция"), (2, "2 коллекции"), (4, "4 коллекции"), (5, "5 коллекций"), (11, "11 коллекций"),
        (12, "12 коллекций"), (14, "14 коллекций"), (21, "21 коллекция"), (22, "22 коллекции"), (25, "25 коллекций"),
        (0, "0 коллекций"), (101, "101 коллекция"), (111, "111 коллекций"), (1_000_000, "1000000 коллекций"),
    ])
    func russianPluralsFollowTheLastDigits(_ count: Int, _ expected: String) {
        #expect(Catalog.plural(.countCollections, count, [], in: .ru) == expected)
    }

    @Test func englishPluralsAreOneOrOther() {
        #expect(Catalog.plural(.countCollections, 1, [], in: .en) == "1 collection")
        #expect(Catalog.plural(.countCollections, 0, [], in: .en) == "0 collections")
        #expect(Catalog.plural(.countCollections, 21, [], in: .en) == "21 collections")
        #expect(Catalog.plural(.countNFTs, 21, [], in: .ru) == "21 NFT")
        #expect(Catalog.plural(.countUsers, 3, [], in: .ru) == "3 пользователя")
        #expect(Catalog.plural(.ofUsers, 21, [], in: .ru) == "21 пользователя")
        #expect(Catalog.plural(.countCollections, Int.min, [], in: .ru).hasSuffix("коллекций"))  // magnitude, no trap
    }

    @Test func decimalsUseTheLanguagesSeparator() async {
        await Language.with(.ru) {
            #expect(decimal(3.35) == "3,35")
            #expect(tr(.price, decimal(3.35)) == "3,35 ETH")
            #expect(decimal(.nan) == "—")
            #expect(decimal(.infinity) == "—")
        }
        await Language.with(.en) { #expect(decimal(3.35) == "3.35") }
    }

    @Test func argumentsAreFilledOnceAndNeverReadAgain() {
        #expect(Catalog.fill("{0} and {1}", ["{1}", "x"]) == "{1} and x")
        #expect(Catalog.fill("{0} {5} {x", ["a"]) == "a {5} {x")
        #expect(Catalog.placeholders("{1} of {0}, {x}") == [1, 0])
    }

    @Test(
        arguments: [
            (["LANG": "ru_RU.UTF-8"], Language.ru, "LANG"),
            (["LANG": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"], .ru, "LC_MESSAGES"),
            (["LANG": "ru_RU.UTF-8", "LC_ALL": "en_GB.UTF-8"], .en, "LC_ALL"),
            (["LC_ALL": "", "LANG": "ru"], .ru, "LANG"),
            (["LANG": "C.UTF-8"], nil, ""),
            (["LANG": "de_DE.UTF-8"], nil, ""),
            ([:], nil, ""),
        ] as [([String: String], Language?, String)])
    func theLocaleVariablesChooseTheLanguage(_ environment: [String: String], _ language: Language?, _ variable: String)
    {
        let found = Language.fromLocale(environment)
        #expect(found?.language == language)
        if let found { #expect(found.variable == variable) }
    }

    @Test func aTaskCanSpeakAnotherLanguageThanTheProcess() async {
        #expect(Language.current == .en)
        await Language.with(.ru) {
            #expect(tr(.tabCart) == "Корзина")
            await Task { #expect(tr(.tabCart) == "Корзина") }.value  // tasks it starts inherit it
        }
        #expect(tr(.tabCart) == "Cart")
    }
}
