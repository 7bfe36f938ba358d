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
    public static func render(_ label: String, at point: Point, maxWidth: Int, buffer: inout Buffer, date: Date = Date()) {
        buffer.draw("\(frame(at: date)) \(label)", at: point, style: .accent, maxWidth: maxWidth)
    }
}

/// A short message shown at the bottom for a few seconds ("Could not like: offline").
public struct Toast: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case info, error }
    public var message: String
    public var kind: Kind
    public var expires: Date

    public init(_ message: String, kind: Kind = .info, duration: TimeInterval = 4, now: Date = Date()) {
        self.message = message; self.kind = kind; self.expires = now.addingTimeInterval(duration)
    }

    @MainActor
    public func render(in area: Rect, buffer: inout Buffer) {
        let text = " \(kind == .error ? "✗" : "✓") \(message) "
        let width = min(area.width, DisplayWidth.of(text))
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.maxY - 1, width: width, height: 1)
        let style = kind == .error ? Style(foreground: .white, background: .red, bold: true) : Style(bold: true, reverse: true)
        buffer.draw(text, at: Point(x: rect.x, y: rect.y), style: style, maxWidth: rect.width)
    }
}

/// The `?` overlay: the keys of the screen in focus, in a box.
@MainActor
public enum HelpOverlay {
    public static func render(title: String, sections: [(String, [HelpEntry])], in area: Rect, buffer: inout Buffer) {
        let rows = sections.reduce(0) { $0 + $1.1.count + 2 }
        let keyWidth = min(18, (sections.flatMap { $0.1 }.map { DisplayWidth.of($0.keys) }.max() ?? 4) + 2)
        let rect = area.centered(width: min(area.width - 2, 64), height: min(area.height, rows + 3))
        guard rect.width > 10, rect.height > 3 else { return }
        buffer.clear(rect)
        buffer.box(rect, title: title, style: .accent)
        var y = rect.y + 1
        let bottom = rect.maxY - 2
        for (heading, entries) in sections {
            guard y < bottom else { break }
            buffer.draw(heading, at: Point(x: rect.x + 2, y: y), style: .bold, maxWidth: rect.width - 4)
            y += 1
            for entry in entries where y < bottom {
                buffer.draw(entry.keys, at: Point(x: rect.x + 3, y: y), style: .accent, maxWidth: keyWidth)
                buffer.draw(entry.text, at: Point(x: rect.x + 3 + keyWidth, y: y), style: .plain, maxWidth: rect.width - keyWidth - 5)
                y += 1
            }
            y += 1
        }
        buffer.draw("Esc or ? to close", at: Point(x: rect.x + 2, y: rect.maxY - 2), style: .dim, maxWidth: rect.width - 4)
    }
}

/// What is shown when the terminal is smaller than the app needs.
@MainActor
public enum TooSmallScreen {
    public static func render(need: Size, have: Size, buffer: inout Buffer) {
        let lines = ["Terminal too small", "need \(need), have \(have)", "resize, or q to quit"]
        let top = max(0, (have.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let w = DisplayWidth.of(line)
            buffer.draw(line, at: Point(x: max(0, (have.width - w) / 2), y: top + i), style: i == 0 ? .error : .plain, maxWidth: have.width)
        }
    }
}
