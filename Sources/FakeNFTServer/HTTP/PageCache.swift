import NIOCore
import Synchronization

/// List pages as they were answered (image links pointed at their base), so that a page asked
/// for again is one lookup instead of a page built and its links rewritten. A page is found by
/// the revision of the table it came from (``EncodedTable/revision``: a changed table is a new
/// revision, so nothing stale is ever found), the request's query as sent, and the links' base.
/// Bounded: pages past ``largestPage`` bytes or asked with a query longer than ``longestQuery``
/// are not kept, and past ``capacity`` pages the cache starts again empty.
final class PageCache: Sendable {
    struct Key: Hashable {
        var table: Int
        var query: String
        var base: String
    }

    static let capacity = 256
    static let largestPage = 64 * 1024
    static let longestQuery = 512

    private let pages = Mutex<[Key: ByteBuffer]>([:])

    /// The page kept for `key`, else `make`'s, kept when it is small enough.
    func page(_ key: Key, orMake make: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        guard key.query.utf8.count <= Self.longestQuery else { return try make() }
        if let kept = pages.withLock({ $0[key] }) { return kept }
        let made = try make()
        guard made.readableBytes <= Self.largestPage else { return made }
        pages.withLock { pages in
            if pages.count >= Self.capacity { pages.removeAll(keepingCapacity: true) }
            pages[key] = made
        }
        return made
    }

    /// How many pages are kept.
    var count: Int { pages.withLock { $0.count } }
}
