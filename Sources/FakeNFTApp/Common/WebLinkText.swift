import FakeNFTCore
import TerminalUI

extension Buffer {
    /// Draws `text` in the link style, as a hyperlink to `address` when it is a clean web link
    /// (``SafeLink``): terminals with OSC 8 open it on the user's machine. Returns the cells used.
    @discardableResult
    mutating func draw(_ text: String, at point: Point, maxWidth: Int, webLink address: String?) -> Int {
        guard let address, case .success(let clean) = SafeLink.check(address) else {
            return draw(text, at: point, style: .link, maxWidth: maxWidth)
        }
        return draw(text, at: point, style: .link, maxWidth: maxWidth, link: clean)
    }
}
