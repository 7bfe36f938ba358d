import FakeNFTCore
import Localization
import Observation
import TerminalUI

/// The sign-in screen's state: the mode (sign in or sign up), the fields and their problems as
/// you type, the request and its result.
@MainActor @Observable
final class SignInModel {
    enum Mode: Sendable { case signIn, signUp }
    enum Field: Sendable, CaseIterable { case name, email, password, repeatPassword }
    enum Outcome: Sendable { case signedIn(Account), withoutAccount }

    private let api: APIClient
    private(set) var mode: Mode = .signIn
    private(set) var editors: [Field: TextEditor] = [
        .name: TextEditor(maxLength: 100), .email: TextEditor(maxLength: 254),
        .password: TextEditor(maxLength: 72), .repeatPassword: TextEditor(maxLength: 72),
    ]
    /// Fields typed into (or submitted): only these show their problems.
    private(set) var touched: Set<Field> = []
    private(set) var submitting = false
    /// The last request's result (or what happened before: a sign-out), for the user.
    private(set) var message: String?
    /// Whether ``message`` is a failure.
    private(set) var messageIsError = false
    private(set) var outcome: Outcome?

    init(api: APIClient, notice: String? = nil) {
        self.api = api
        message = notice
    }

    /// The fields of the current mode, in order.
    var fields: [Field] { mode == .signIn ? [.email, .password] : [.name, .email, .password, .repeatPassword] }

    func text(_ field: Field) -> String { editors[field]?.text ?? "" }

    func switchMode() {
        mode = mode == .signIn ? .signUp : .signIn
        message = nil
    }

    /// Applies an edit (a key or a paste) to `field`.
    func edit(_ field: Field, _ change: (inout TextEditor) -> Bool) -> Bool {
        guard var editor = editors[field], !submitting else { return false }
        let used = change(&editor)
        if editor.text != text(field) { touched.insert(field) }
        editors[field] = editor
        return used
    }

    /// What is wrong with `field` now, or nil; the same rules as `fakenft serve`'s.
    func problem(_ field: Field) -> String? {
        let value = text(field)
        switch field {
        case .name:
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { return tr(.nameRequired) }
        case .email:
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            let domain = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
            if parts.count != 2 || parts[0].isEmpty || domain.count < 2 || domain.contains(where: \.isEmpty) || value.contains(" ") {
                return tr(.emailInvalid)
            }
        case .password:
            if mode == .signIn { return value.isEmpty ? tr(.passwordRequired) : nil }
            if value.count < 8 { return tr(.passwordShort, 8) }
            if !value.contains(where: \.isLetter) || value.allSatisfy(\.isLetter) { return tr(.passwordWeak) }
        case .repeatPassword:
            if value != text(.password) { return tr(.passwordsDiffer) }
        }
        return nil
    }

    /// Sends the form when every field is right; the outcome or a message follows.
    func submit() async {
        guard !submitting else { return }
        touched.formUnion(fields)
        guard fields.allSatisfy({ problem($0) == nil }) else { fail(tr(.fixFields)); return }
        submitting = true
        message = nil
        defer { submitting = false }
        do {
            let account = mode == .signIn
                ? try await api.signIn(email: text(.email).trimmingCharacters(in: .whitespaces), password: text(.password))
                : try await api.signUp(name: text(.name).trimmingCharacters(in: .whitespacesAndNewlines),
                                       email: text(.email).trimmingCharacters(in: .whitespaces), password: text(.password))
            guard account.token != nil else { fail(tr(.errorUndecodable)); return }
            outcome = .signedIn(account)
        } catch {
            fail(Self.message(for: APIError(thrown: error), mode: mode))
        }
    }

    private func fail(_ text: String) {
        message = text
        messageIsError = true
    }

    func continueWithoutAccount() { if !submitting { outcome = .withoutAccount } }

    /// A failed request in the user's words.
    static func message(for error: APIError, mode: Mode) -> String {
        switch error {
        case .unauthorized: tr(.wrongCredentials)
        case .server(409, _): tr(.emailTaken)
        case .server(400, _): tr(.checkFields)
        case .notFound: tr(.noAccountsHere)
        default: error.message
        }
    }
}
