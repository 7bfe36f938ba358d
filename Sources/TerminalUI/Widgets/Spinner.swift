import Foundation

/// A braille spinner and its label, on the first row of its rectangle; its frame follows the
/// clock, so any redraw shows the right frame.
public struct Spinner: Widget {
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How often the app redraws while a spinner is visible.
    public static let interval: Duration = .milliseconds(100)

    /// The frame for `date` in `buffer`; "…" (no animation) in a frame for a screen reader, where
    /// the label alone says what is loading.
    public static func frame(in buffer: Buffer, at date: Date = Date()) -> String {
        buffer.forScreenReader ? "…" : frames[Int(date.timeIntervalSinceReferenceDate * 10) % frames.count]
    }

    public var label: String

    public init(_ label: String) { self.label = label }

    @MainActor
    public func render(in rect: Rect, buffer: inout Buffer) {
        buffer.draw(
            "\(Self.frame(in: buffer)) \(label)", at: Point(x: rect.x, y: rect.y), style: .accent, maxWidth: rect.width)
    }
}
