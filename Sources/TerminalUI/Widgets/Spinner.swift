import Foundation
import Synchronization

/// A braille spinner whose frame follows the clock, so any redraw shows the right frame.
public enum Spinner {
    /// No animation (`--accessible`): the label alone, which says what is loading.
    public static let isStill = Atomic<Bool>(false)
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How often the app redraws while a spinner is visible.
    public static let interval: Duration = .milliseconds(100)

    /// The frame for `date`; "…" when still.
    public static func frame(at date: Date = Date()) -> String {
        isStill.load(ordering: .relaxed) ? "…" : frames[Int(date.timeIntervalSinceReferenceDate * 10) % frames.count]
    }

    @MainActor
    public static func render(
        _ label: String, at point: Point, maxWidth: Int, buffer: inout Buffer, date: Date = Date()
    ) {
        buffer.draw("\(frame(at: date)) \(label)", at: point, style: .accent, maxWidth: maxWidth)
    }
}
