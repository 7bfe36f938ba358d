import Foundation

/// A braille spinner whose frame follows the clock, so any redraw shows the right frame.
public enum Spinner {
    public static let frames: [String] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How often the app redraws while a spinner is visible.
    public static let interval: Duration = .milliseconds(100)

    public static func frame(at date: Date = Date()) -> String {
        frames[Int(date.timeIntervalSinceReferenceDate * 10) % frames.count]
    }

    @MainActor
    public static func render(
        _ label: String, at point: Point, maxWidth: Int, buffer: inout Buffer, date: Date = Date()
    ) {
        buffer.draw("\(frame(at: date)) \(label)", at: point, style: .accent, maxWidth: maxWidth)
    }
}
