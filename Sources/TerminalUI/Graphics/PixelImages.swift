import Observation

/// Pictures in pixels for the terminal's protocol: each (picture, size) is encoded once, off the
/// main actor, and kept. Kitty pictures are uploaded once and shown by placeholder cells; sixel
/// and iTerm2 pictures are escapes the surface writes over the cells they cover
/// (``PixelOverlay``). Screens draw character art until a picture is ready.
@MainActor @Observable
public final class PixelImages {
    /// What a frame places for a picture in pixels.
    public enum Placement: Sendable, Hashable {
        /// Kitty placeholder cells: the picture is text.
        case cells([Cell])
        /// An image the surface writes over the picture's cells (sixel, iTerm2).
        case overlay(Int)
    }

    private enum Entry {
        case encoding
        case kitty(UInt8)
        case overlay(Int)
        case failed
    }

    private struct Key: Hashable {
        var picture: String
        var size: Size
    }

    @ObservationIgnored public private(set) var graphics: TerminalGraphics
    private var entries: [Key: Entry] = [:]
    @ObservationIgnored private var payloads: [Int: String] = [:]
    @ObservationIgnored private var payloadBytes = 0
    @ObservationIgnored private var nextOverlay = 1
    @ObservationIgnored private var lastUse: [Key: Int] = [:]
    @ObservationIgnored private var clock = 0
    @ObservationIgnored private var kittyOwners: [UInt8: Key] = [:]
    @ObservationIgnored private var pending = ""
    /// The encodings under way (their owner: cancelled when the cell size changes or the session ends).
    @ObservationIgnored private var encodes: [Key: Task<Void, Never>] = [:]

    /// Encoded sixel and iTerm2 images kept, in bytes; past it the least recently drawn go.
    public static let payloadCapacity = 48 << 20

    /// - Parameter graphics: the mode (kitty, sixel or iTerm2) and the cell size in pixels.
    public init(graphics: TerminalGraphics) {
        precondition(graphics.mode.isPixels, "PixelImages needs a pixel mode")
        self.graphics = graphics
    }

    /// The picture called `name` over `size` cells in pixels, or nil until it is encoded (and
    /// when it cannot be). `image` gives its RGBA pixels, read only the first time.
    public func placement(for name: String, size: Size, image: () -> (rgba: [UInt8], width: Int, height: Int))
        -> Placement?
    {
        let key = Key(picture: name, size: size)
        clock += 1
        lastUse[key] = clock
        switch entries[key] {
        case .kitty(let id): return .cells(KittyGraphics.cells(id: id, columns: size.width, rows: size.height))
        case .overlay(let id): return .overlay(id)
        case .encoding, .failed: return nil
        case nil: break
        }
        guard size.width > 0, size.height > 0, size.width <= KittyGraphics.maxCells,
            size.height <= KittyGraphics.maxCells
        else {
            entries[key] = .failed
            return nil
        }
        entries[key] = .encoding
        let source = image()
        let pixels = Size(
            width: size.width * graphics.cellPixels.width, height: size.height * graphics.cellPixels.height)
        let mode = graphics.mode
        let id: UInt8? = mode == .kitty ? kittyID(for: key) : nil
        encodes[key] = Task { [weak self] in
            let encoded = await Self.encode(source, mode: mode, pixels: pixels, cells: size, kittyID: id)
            guard !Task.isCancelled else { return }
            self?.finish(key, encoded: encoded, kittyID: id)
        }
        return nil
    }

    /// The escape of overlay image `id`, moved to the cell at the top left of its picture.
    public func overlayEscape(_ id: Int, at origin: Point) -> String? {
        guard let payload = payloads[id] else { return nil }
        let positioned = "\u{1B}[\(origin.y + 1);\(origin.x + 1)H" + payload
        return "\u{1B}7" + (graphics.throughTmux ? Passthrough.tmux(positioned) : positioned) + "\u{1B}8"
    }

    /// Escapes to write before the next frame (kitty uploads and deletes); emptied.
    public func takePendingOutput() -> String {
        defer { pending = "" }
        return pending
    }

    /// A new cell size in pixels (the font was zoomed): every picture is encoded again.
    public func changeCellPixels(to cell: Size) {
        guard cell.width > 0, cell.height > 0, cell != graphics.cellPixels else { return }
        graphics.cellPixels = cell
        pending += farewell()
        cancelEncoding()
        entries = [:]
        payloads = [:]
        payloadBytes = 0
        lastUse = [:]
        kittyOwners = [:]
    }

    /// Escapes that free everything this run sent the terminal (kitty images), for the exit.
    public func farewell() -> String {
        kittyOwners.keys.sorted().map { wrap(KittyGraphics.delete(id: $0)) }.joined()
    }

    /// Stops waiting for the encodings under way (at the end of the session, or when every
    /// picture is encoded again); their pictures are asked for again when next drawn.
    public func cancelEncoding() {
        for (key, task) in encodes {
            task.cancel()
            if case .encoding = entries[key] { entries[key] = nil }
        }
        encodes = [:]
    }

    private func finish(_ key: Key, encoded: String?, kittyID: UInt8?) {
        encodes[key] = nil
        guard case .encoding = entries[key] else { return }
        guard let encoded else {
            entries[key] = .failed
            return
        }
        if let kittyID {
            guard kittyOwners[kittyID] == key else {
                entries[key] = nil
                return
            }  // recycled meanwhile
            pending += wrap(encoded)
            entries[key] = .kitty(kittyID)
            return
        }
        let id = nextOverlay
        nextOverlay += 1
        payloads[id] = encoded
        payloadBytes += encoded.utf8.count
        entries[key] = .overlay(id)
        evictPayloads()
    }

    /// A free kitty id, or the least recently drawn one (its image deleted).
    private func kittyID(for key: Key) -> UInt8 {
        if let free = KittyGraphics.ids.first(where: { kittyOwners[$0] == nil }) {
            kittyOwners[free] = key
            return free
        }
        let (id, owner) = kittyOwners.min { (lastUse[$0.value] ?? 0) < (lastUse[$1.value] ?? 0) }!
        entries[owner] = nil
        lastUse[owner] = nil
        pending += wrap(KittyGraphics.delete(id: id))
        kittyOwners[id] = key
        return id
    }

    private func evictPayloads() {
        guard payloadBytes > Self.payloadCapacity else { return }
        let byAge = entries.compactMap { key, entry -> (Key, Int)? in
            if case .overlay(let id) = entry { return (key, id) } else { return nil }
        }.sorted { (lastUse[$0.0] ?? 0) < (lastUse[$1.0] ?? 0) }
        for (key, id) in byAge where payloadBytes > Self.payloadCapacity / 2 {
            payloadBytes -= payloads[id]?.utf8.count ?? 0
            payloads[id] = nil
            entries[key] = nil
            lastUse[key] = nil
        }
    }

    private func wrap(_ escape: String) -> String { graphics.throughTmux ? Passthrough.tmux(escape) : escape }

    /// The picture fitted to `pixels` and encoded for `mode` (runs off the main actor).
    @concurrent
    private nonisolated static func encode(
        _ source: (rgba: [UInt8], width: Int, height: Int), mode: ImageMode, pixels: Size,
        cells: Size, kittyID: UInt8?
    ) async -> String? {
        let fitted = PixelFit.fit(source.rgba, width: source.width, height: source.height, into: pixels)
        guard !fitted.isEmpty else { return nil }
        switch mode {
        case .kitty:
            return KittyGraphics.upload(
                id: kittyID ?? KittyGraphics.ids.lowerBound, rgba: fitted, width: pixels.width, height: pixels.height,
                columns: cells.width, rows: cells.height)
        case .sixel:
            return SixelEncoder.encode(rgba: fitted, width: pixels.width, height: pixels.height, size: pixels)
        case .iterm2:
            return ITerm2Images.encode(
                rgba: fitted, width: pixels.width, height: pixels.height, columns: cells.width, rows: cells.height)
        case .symbols, .off:
            return nil
        }
    }
}
