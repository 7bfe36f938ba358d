import Localization
import FakeNFTCore
import Foundation
import TerminalUI

/// The profile edit form: four fields, validation, and the changes to send.
struct ProfileForm: Sendable {
    enum Field: Int, CaseIterable, Sendable { case name, description, website, avatar }

    let original: Profile
    /// The profile as the form first showed it: fields sanitized and cut to their limits. A
    /// field is changed only when it differs from this, so opening and closing the form on a
    /// profile with control characters in it neither asks "Discard changes?" nor sends anything.
    private var shown: Profile
    var editors: [Field: TextEditor]
    var focus: Field = .name
    /// True when the Save button, after the last field, has the focus.
    var saveFocused = false
    /// Each field's problem as last checked: a field is checked when its text changes, never per
    /// frame, so a frame costs the same with 2,000 characters in a field as with one.
    private var problems: [Field: String] = [:]
    /// The avatar field's link, trimmed, once it is a valid web address (for its preview).
    private(set) var avatarLink: String?

    init(profile: Profile) {
        original = profile
        editors = [
            .name: TextEditor(profile.name, maxLength: ProfileRules.maxName),
            .description: TextEditor(profile.description, multiline: true, maxLength: ProfileRules.maxDescription),
            .website: TextEditor(profile.website, maxLength: ProfileRules.maxLink),
            .avatar: TextEditor(profile.avatar, maxLength: ProfileRules.maxLink),
        ]
        shown = profile
        shown = edited
        for field in Field.allCases { check(field) }
    }

    /// How many rows `field`'s editor takes.
    static func rows(_ field: Field) -> Int { field == .description ? 4 : 1 }

    static func label(_ field: Field) -> String {
        switch field {
        case .name: return tr(.fieldName)
        case .description: return tr(.fieldDescription)
        case .website: return tr(.fieldWebsite)
        case .avatar: return tr(.fieldAvatar)
        }
    }

    func text(_ field: Field) -> String { editors[field]?.text ?? "" }

    /// The message to show beside `field`, or nil when it is valid (``ProfileRules``, as the
    /// server checks them).
    func error(_ field: Field) -> String? { problems[field] }

    private mutating func check(_ field: Field) {
        problems[field] = Self.problem(field, text(field))
        if field == .avatar {
            let link = Self.trimmed(text(.avatar))
            avatarLink = link.isEmpty || problems[.avatar] != nil ? nil : link
        }
    }

    private static func problem(_ field: Field, _ value: String) -> String? {
        let problem =
            switch field {
            case .name: ProfileRules.nameProblem(value)
            case .description: ProfileRules.descriptionProblem(value)
            case .website, .avatar: ProfileRules.linkProblem(trimmed(value))
            }
        return switch problem {
        case nil: nil
        case .nameEmpty: tr(.nameRequired)
        case .tooLong(let limit): tr(.atMostCharacters, limit)
        case .hasControls, .linkInvalid: tr(.mustBeURL)  // the editor keeps control characters out
        }
    }

    var isValid: Bool { problems.isEmpty }

    /// `text` without the spaces and tabs at its ends (Foundation's `.whitespaces`), without
    /// bridging to `NSString`: it runs on every key.
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// The profile as edited (names trimmed).
    var edited: Profile {
        var profile = original
        profile.name = text(.name).trimmingCharacters(in: .whitespacesAndNewlines)
        profile.description = text(.description)
        profile.website = Self.trimmed(text(.website))
        profile.avatar = Self.trimmed(text(.avatar))
        return profile
    }

    /// Only the fields that changed.
    var changes: ProfileUpdate {
        var update = ProfileUpdate.changes(from: shown, to: edited)
        update.likes = nil
        return update
    }

    var hasChanges: Bool { !changes.isEmpty }

    /// Moves through the fields and then the Save button, wrapping around.
    mutating func moveFocus(by delta: Int) {
        let stops = Field.allCases.count + 1
        let current = saveFocused ? stops - 1 : focus.rawValue
        let next = (current + delta + stops) % stops
        saveFocused = next == stops - 1
        if !saveFocused { focus = Field(rawValue: next)! }
    }

    /// Edits the focused field; returns false for keys the field does not use.
    mutating func edit(_ key: Key) -> Bool {
        guard !saveFocused, var editor = editors[focus] else { return false }
        let before = editor.characters.count
        let used = editor.handle(key)
        editors[focus] = editor
        if editor.characters.count != before { check(focus) }  // every edit adds or removes characters
        return used
    }

    mutating func paste(_ text: String) {
        guard !saveFocused else { return }
        editors[focus]?.insert(text)
        check(focus)
    }
}
