import TerminalUI

/// On a wide terminal a list shows beside the detail of its selected item, as lazygit's and
/// yazi's panes do: the Catalog beside the selected collection, the Cart beside its summary,
/// Statistics beside the selected user. Narrower, the list has the width alone.
@MainActor
enum DetailPane {
    /// From this many columns the detail has a pane of its own.
    static let minimumWidth = 150

    /// The list's part of `rect` and the detail's (nil below ``minimumWidth``): two fifths, after a gap.
    static func split(_ rect: Rect) -> (list: Rect, detail: Rect?) {
        guard rect.width >= minimumWidth else { return (rect, nil) }
        let (list, _, detail) = rect.columns(.fill, .length(2), .length(rect.width * 2 / 5))
        return (list, detail)
    }

    /// Draws the pane's box titled `title`; returns its inside.
    static func frame(_ rect: Rect, title: String, buffer: inout Buffer) -> Rect {
        let block = Block(title: title, style: .dim)
        buffer.render(block, in: rect)
        return block.inner(rect)
    }

    /// A picture as wide as `area` allows, square in 1:2 cells, at most `rows` high; returns the rows used.
    static func picture(
        _ link: String, label: String, in area: Rect, rows: Int, pictures: Pictures, buffer: inout Buffer
    ) -> Int {
        let height = max(1, min(rows, area.height, area.width / 2)), width = height * 2
        buffer.render(
            PictureView(link, label: label, pictures: pictures),
            in: Rect(x: area.x, y: area.y, width: width, height: height))
        return height
    }
}
