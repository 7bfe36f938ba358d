import Foundation
import Synchronization

/// A braille spinner and its label, on the first row of its rectangle; its frame follows the
/// clock, so any redraw shows the right frame.
public struct Spinner: Widget {
    /// No animation (`--accessible`): the label alone, which says what is loading.
    public static let isStill = Atomic<Bool>(false)
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How often the app redraws while a spinner is visible.
    public static let interval: Duration = .milliseconds(100)

    /// The frame for `date`; "…" when still.
    public static func frame(at date: Date = Date()) -> String {
        isStill.load(ordering: .relaxed) ? "…" : frames[Int(date.timeIntervalSinceReferenceDate * 10) % frames.count]
    }

    public var label: String

    public init(_ label: String) { self.label = label }

    @MainActor
    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.draw("\(Self.frame()) \(label)", at: Point(x: rect.x, y: rect.y), style: .accent, maxWidth: rect.width)
    }
}
