import FakeNFTCore
import Localization
import TerminalUI

/// About: the version, the licence, and where the data and the pictures come from.
@MainActor
final class AboutScreen: Screen {
    var title: String { tr(.aboutTitle) }
    var usage: UsageEvent.Screen { .about }
    let tasks = TaskBag()
    var layers: [KeyLayer] { [] }

    func render(in rect: Rect, buffer: inout Buffer) {
        let width = min(rect.width - 2, 76)
        var y = rect.y
        buffer.draw(tr(.aboutName, FakeNFTVersion.current), at: Point(x: rect.x, y: y), style: .bold, maxWidth: width)
        y += 2
        for paragraph in [tr(.aboutLicence), tr(.aboutData), tr(.aboutPictures), tr(.aboutKeys)] {
            for line in DisplayWidth.wrap(paragraph, width: width) where y < rect.maxY {
                buffer.draw(line, at: Point(x: rect.x, y: y), style: .plain, maxWidth: width)
                y += 1
            }
            y += 1
        }
    }
}
