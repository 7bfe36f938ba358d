import Localization
import FakeNFTCore
import Foundation
import Observation
import TerminalUI

/// What the app does outside its screens: the toast line, the terminal's clipboard and the
/// system browser (none in an SSH session: the visitor's machine opens links, so they are shown
/// and copied instead). Links reach the clipboard and the browser only through ``SafeLink``.
@MainActor @Observable
public final class Effects {
    /// The message at the bottom of the screen, until it expires.
    public private(set) var toast: Toast?
    /// When the toast was shown, by ``clock``.
    @ObservationIgnored private var toastShown = Duration.zero
    @ObservationIgnored private let clipboard: (String) -> Void
    @ObservationIgnored private let browser: ((String) -> Bool)?
    /// What toasts last by.
    @ObservationIgnored private let clock: AppClock

    /// - Parameters:
    ///   - clipboard: puts checked text on the clipboard (OSC 52 in the app).
    ///   - browser: opens a checked link; false when no browser could be started. Nil where
    ///     this machine must not open anything (an SSH session): a link is shown and copied.
    ///   - clock: what toasts last by.
    public init(clipboard: @escaping (String) -> Void, browser: ((String) -> Bool)?, clock: AppClock = .continuous) {
        self.clipboard = clipboard
        self.browser = browser
        self.clock = clock
    }

    /// Effects that only show toasts: for tests and the benchmark.
    public static func toastsOnly(clock: AppClock = .continuous) -> Effects {
        Effects(clipboard: { _ in }, browser: { _ in false }, clock: clock)
    }

    public func show(_ toast: Toast) {
        self.toast = toast
        toastShown = clock.elapsed()
    }

    /// Drops the toast once it has shown for as long as it lasts.
    public func expireToast() {
        if let toast, clock.elapsed() - toastShown >= toast.lasts { self.toast = nil }
    }

    /// Copies `link` when it is a clean http(s) URL; says what happened in a toast.
    public func copy(link: String) {
        switch SafeLink.check(link) {
        case .success(let clean):
            clipboard(clean)
            show(Toast(tr(.linkCopied)))
        case .failure(let refusal): show(Toast(tr(.notCopied, refusal.message), kind: .error))
        }
    }

    /// Opens `link` in the system browser when it is a clean http(s) URL; without one (an SSH
    /// session), shows the address and copies it.
    public func open(link: String) {
        switch SafeLink.check(link) {
        case .success(let clean):
            guard let browser else {
                clipboard(clean)
                return show(Toast(tr(.openOnYourMachine, clean)))
            }
            if !browser(clean) { show(Toast(tr(.noBrowser), kind: .error)) }
        case .failure(let refusal): show(Toast(tr(.notOpened, refusal.message), kind: .error))
        }
    }
}
