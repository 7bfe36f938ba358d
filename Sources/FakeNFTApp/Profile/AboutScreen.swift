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
        let (text, _) = rect.columns(.length(min(rect.width - 2, 76)), .fill)
        var lines = [Line(tr(.aboutName, FakeNFTVersion.current), style: .bold, wraps: false)]
        for paragraph in [tr(.aboutLicence), tr(.aboutData), tr(.aboutPictures), tr(.aboutKeys)] {
            lines += [.blank, Line(paragraph)]
        }
        buffer.render(Paragraph(lines), in: text)
    }
}
