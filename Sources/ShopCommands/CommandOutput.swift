import Foundation

/// What a command answers: one JSON document (`--json`), and the same as rows, printed as an
/// aligned table on a terminal and as tab-separated lines otherwise.
public struct CommandOutput: Sendable {
    /// The JSON document: the API's own answer where one says it all.
    public var json: Data
    /// The columns' names; nil for rows of a field and its value.
    var header: [String]?
    var rows: [[String]]
    /// What a person reads after the table (a total, what changed); left out of plain lines.
    var note: String?

    /// How the output is printed.
    public enum Format: Sendable {
        /// Aligned columns with their names, and the note: stdout is a terminal.
        case table
        /// One line per row, its cells separated by tabs: for scripts.
        case plain
        case json
    }

    /// The output as `format` prints it, ending in a newline; no cell carries a control
    /// character or a line break.
    public func text(_ format: Format) -> String {
        switch format {
        case .json:
            return String(decoding: json, as: UTF8.self) + "\n"
        case .plain:
            return rows.map { $0.map(Self.clean).joined(separator: "\t") + "\n" }.joined()
        case .table:
            let all = (header.map { [$0] } ?? []) + rows
            var widths: [Int] = []
            let cells = all.map { row in
                row.enumerated().map { column, cell in
                    let cut = Self.cut(
                        Self.clean(cell), to: column == row.count - 1 ? Self.lastColumnWidth : Self.columnWidth)
                    if column < widths.count {
                        widths[column] = max(widths[column], cut.count)
                    } else {
                        widths.append(cut.count)
                    }
                    return cut
                }
            }
            var lines = cells.map { row in
                row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
                }.joined(separator: "  ")
            }
            if rows.isEmpty, header != nil { lines = ["(none)"] }
            if let note { lines.append(Self.clean(note)) }
            return lines.map { $0 + "\n" }.joined()
        }
    }

    /// The widest a column's cell is printed in a table (the last column's longer).
    static let columnWidth = 40
    static let lastColumnWidth = 200

    /// `text` with no control or direction-changing character: line breaks and tabs become spaces,
    /// the rest is dropped (a name from the network cannot move the cursor or recolour the terminal).
    static func clean(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control:
                if ["\t", "\n", "\r"].contains(scalar) { result.append(" ") }
            case .format where Self.directionMarks.contains(scalar.value): break
            case .lineSeparator, .paragraphSeparator: result.append(" ")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Embeddings, overrides and isolates: text that reads in another order than it is stored.
    private static let directionMarks: Set<UInt32> = Set(0x202A...0x202E).union(0x2066...0x2069)

    private static func cut(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}
