import FakeNFTCore
import TerminalUI

extension Span {
    /// `text` in the link style, a hyperlink to `address` when it is a clean web link
    /// (``SafeLink``): terminals with OSC 8 open it on the user's machine.
    static func webLink(_ text: String, to address: String?) -> Span {
        guard let address, case .success(let clean) = SafeLink.check(address) else { return Span(text, style: .link) }
        return Span(text, style: .link, link: clean)
    }
}
