import FakeNFTModels

/// What the server answers for a sign-up field that breaks ``AccountRules``.
enum Credentials {
    /// The first problem of the fields, as the client is told it; nil when all are right.
    static func problem(name: String, email: String, password: String) -> String? {
        (AccountRules.nameProblem(name) ?? AccountRules.emailProblem(email) ?? AccountRules.passwordProblem(password))
            .map(message)
    }

    static func message(_ problem: AccountRules.Problem) -> String {
        switch problem {
        case .nameEmpty: "name must not be empty"
        case .nameTooLong: "name must be at most \(AccountRules.maxName) characters"
        case .nameHasControls: "name must not hold control characters"
        case .emailInvalid: "email is not a valid e-mail address"
        case .passwordTooShort: "password must be at least \(AccountRules.minPassword) characters"
        case .passwordTooLong: "password must be at most \(AccountRules.maxPasswordBytes) bytes"
        case .passwordWeak: "password must hold letters and at least one digit or symbol"
        case .passwordHasControls: "password must not hold control characters"
        }
    }
}
