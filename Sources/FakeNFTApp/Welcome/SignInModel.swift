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
        .name: TextEditor(maxLength: AccountRules.maxName), .email: TextEditor(maxLength: AccountRules.maxEmail),
        .password: TextEditor(maxLength: 72), .repeatPassword: TextEditor(maxLength: 72),
    ]
    /// Fields typed into (or submitted): only these show their problems.
    private(set) var touched: Set<Field> = []
    private(set) var submitting = false
    /// What happened before (a sign-out), until something else is said.
    private(set) var notice: String?
    /// Why the last request did not go through.
    private(set) var failure: SignInFailure?
    private(set) var outcome: Outcome?

    init(api: APIClient, notice: String? = nil) {
        self.api = api
        self.notice = notice
    }

    /// The fields of the current mode, in order.
    var fields: [Field] { mode == .signIn ? [.email, .password] : [.name, .email, .password, .repeatPassword] }

    func text(_ field: Field) -> String { editors[field]?.text ?? "" }

    func switchMode() {
        mode = mode == .signIn ? .signUp : .signIn
        notice = nil
        failure = nil
    }

    /// Applies an edit (a key or a paste) to `field`.
    func edit(_ field: Field, _ change: (inout TextEditor) -> Bool) -> Bool {
        guard var editor = editors[field], !submitting else { return false }
        let used = change(&editor)
        if editor.text != text(field) { touched.insert(field) }
        editors[field] = editor
        return used
    }

    /// What is wrong with `field` now, or nil: ``AccountRules``, which `fakenft serve` enforces.
    func problem(_ field: Field) -> String? {
        let value = text(field)
        switch field {
        case .name: return AccountRules.nameProblem(value).map(Self.message)
        case .email: return AccountRules.emailProblem(value.trimmingCharacters(in: .whitespaces)).map(Self.message)
        case .password:
            if mode == .signIn { return value.isEmpty ? tr(.passwordRequired) : nil }
            return AccountRules.passwordProblem(value).map(Self.message)
        case .repeatPassword: return value == text(.password) ? nil : tr(.passwordsDiffer)
        }
    }

    static func message(_ problem: AccountRules.Problem) -> String {
        switch problem {
        case .nameEmpty, .nameHasControls: tr(.nameRequired)  // the editor keeps controls out
        case .nameTooLong: tr(.atMostCharacters, AccountRules.maxName)
        case .emailInvalid: tr(.emailInvalid)
        case .passwordTooShort: tr(.passwordShort, AccountRules.minPassword)
        case .passwordTooLong: tr(.passwordLong, AccountRules.maxPasswordBytes)
        case .passwordWeak: tr(.passwordWeak)
        case .passwordHasControls: tr(.passwordHasControls)
        }
    }

    /// Sends the form when every field is right; the outcome or a message follows.
    func submit() async {
        guard !submitting else { return }
        touched.formUnion(fields)
        guard fields.allSatisfy({ problem($0) == nil }) else {
            fail(.invalidFields)
            return
        }
        submitting = true
        notice = nil
        failure = nil
        defer { submitting = false }
        do {
            let account =
                mode == .signIn
                ? try await api.signIn(
                    email: text(.email).trimmingCharacters(in: .whitespaces), password: text(.password))
                : try await api.signUp(
                    name: text(.name).trimmingCharacters(in: .whitespacesAndNewlines),
                    email: text(.email).trimmingCharacters(in: .whitespaces), password: text(.password))
            guard account.token != nil else {
                fail(.noSession)
                return
            }
            outcome = .signedIn(account)
        } catch {
            fail(.refused(APIError(thrown: error)))
        }
    }

    private func fail(_ failure: SignInFailure) {
        notice = nil
        self.failure = failure
    }

    func continueWithoutAccount() { if !submitting { outcome = .withoutAccount } }
}
