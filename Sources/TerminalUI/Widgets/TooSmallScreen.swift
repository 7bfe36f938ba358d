/// What is shown when the terminal is smaller than the app needs.
@MainActor
public enum TooSmallScreen {
    public static func render(need: Size, have: Size, buffer: inout Buffer) {
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
