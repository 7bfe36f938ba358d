import Foundation

/// A web address from the network, made fit to copy to the clipboard or hand to a browser:
/// every control and format character (C0, C1, DEL, bidi controls, zero-width marks) removed,
/// then accepted only as an `http`/`https` URL that parses and names a host.
///
/// An accepted link always begins with `http`, so no opener can take it for an option.
public enum SafeLink {
    /// Why a link was refused, fit for the user.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case notWeb(scheme: String)
        case malformed

        public var description: String {
            switch self {
            case .empty: "there is no link"
            case .notWeb(let scheme):
                "only http and https links are opened, not \(scheme.isEmpty ? "this one" : "\(scheme):")"
            case .malformed: "the link is not a valid web address"
            }
        }
    }

    /// The link to use, or why not.
    public static func check(_ text: String) -> Result<String, Refusal> {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { !isControl($0) }))
            .trimmingCharacters(in: .whitespaces)
        guard !cleaned.isEmpty else { return .failure(.empty) }
        guard let components = URLComponents(string: cleaned), let scheme = components.scheme?.lowercased() else {
            return .failure(.malformed)
        }
        guard scheme == "http" || scheme == "https" else { return .failure(.notWeb(scheme: String(scheme.prefix(20)))) }
        guard let host = components.host, !host.isEmpty, let url = components.url else { return .failure(.malformed) }
        return .success(url.absoluteString)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
