/// What is shown when the terminal is smaller than the app needs.
@MainActor
public struct TooSmallScreen: Widget {
    /// The smallest size the app draws in.
    public var need: Size

    public init(need: Size) { self.need = need }

    /// Says so, centred in `rect` (the whole terminal).
    public func render(in rect: Rect, buffer: inout Buffer) {
        let have = Size(width: rect.width, height: rect.height)
        let lines = [WidgetText.tooSmallTitle(), WidgetText.tooSmallSizes(need, have), WidgetText.tooSmallAdvice()]
        let top = max(0, (have.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let w = DisplayWidth.of(line)
            buffer.draw(
                line, at: Point(x: max(0, (have.width - w) / 2), y: top + i), style: i == 0 ? .error : .plain,
                maxWidth: have.width)
        }
    }
}
