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

    init(profile: Profile) {
        original = profile
        editors = [
            .name: TextEditor(profile.name, maxLength: 100),
            .description: TextEditor(profile.description, multiline: true, maxLength: 500),
            .website: TextEditor(profile.website),
            .avatar: TextEditor(profile.avatar),
        ]
        shown = profile
        shown = edited
    }

    static func label(_ field: Field) -> String {
        switch field {
        case .name: return tr(.fieldName)
        case .description: return tr(.fieldDescription)
        case .website: return tr(.fieldWebsite)
        case .avatar: return tr(.fieldAvatar)
        }
    }

    func text(_ field: Field) -> String { editors[field]?.text ?? "" }

    /// The message to show beside `field`, or nil when it is valid.
    func error(_ field: Field) -> String? {
        let value = text(field)
        switch field {
        case .name:
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return tr(.nameRequired) }
            if trimmed.count > 100 { return tr(.atMostCharacters, 100) }
        case .description:
            if value.count > 500 { return tr(.atMostCharacters, 500) }
        case .website, .avatar:
            if !value.isEmpty && !Self.isWebURL(value) { return tr(.mustBeURL) }
        }
        return nil
    }

    var isValid: Bool { Field.allCases.allSatisfy { error($0) == nil } }

    /// The profile as edited (names trimmed).
    var edited: Profile {
        var profile = original
        profile.name = text(.name).trimmingCharacters(in: .whitespacesAndNewlines)
        profile.description = text(.description)
        profile.website = text(.website).trimmingCharacters(in: .whitespaces)
        profile.avatar = text(.avatar).trimmingCharacters(in: .whitespaces)
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
        let used = editor.handle(key)
        editors[focus] = editor
        return used
    }

    mutating func paste(_ text: String) {
        guard !saveFocused else { return }
        editors[focus]?.insert(text)
    }

    static func isWebURL(_ text: String) -> Bool {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased()
        else { return false }
        return (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty
    }
}
