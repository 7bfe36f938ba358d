/// An array kept in chunks of 256 elements. A copy shares the chunks until one is changed: a
/// change copies that chunk and the list of chunks (a reference each), not every element, so
/// changing one element of a copy costs the same at any size. What the read model keeps its
/// rows in, since each change publishes a copy while readers hold the one before.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    private static var chunkShift: Int { 8 }
    private static var chunkMask: Int { (1 << chunkShift) - 1 }

    private var chunks: [[Element]] = []
    private(set) var count = 0

    init(_ elements: some Collection<Element>) {
        chunks.reserveCapacity((elements.count + Self.chunkMask) >> Self.chunkShift)
        var rest = elements[...]
        while !rest.isEmpty {
            chunks.append(Array(rest.prefix(1 << Self.chunkShift)))
            rest = rest.dropFirst(1 << Self.chunkShift)
        }
        count = elements.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        get { chunks[position >> Self.chunkShift][position & Self.chunkMask] }
        set { chunks[position >> Self.chunkShift][position & Self.chunkMask] = newValue }
    }

    mutating func append(_ element: Element) {
        if count & Self.chunkMask == 0 {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(1 << Self.chunkShift)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
