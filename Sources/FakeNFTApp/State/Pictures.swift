import FakeNFTCore
import Observation
import TerminalUI

/// The pictures the screens show: loaded through the ``ImageLoader`` when a frame draws them,
/// turned into character art once per size, and forgotten when no frame wants them while they
/// load. Screens read it while drawing; the shell tells it what the last frame wanted.
@MainActor @Observable
public final class Pictures {
    enum State { case loading, ready(DecodedImage), failed }

    /// How a picture is drawn into a frame.
    enum Drawing {
        /// Cells to place: character art, or kitty placeholders.
        case cells([Cell])
        /// Character art with a sixel or iTerm2 image written over it.
        case overlay([Cell], image: Int)
    }

    private(set) var states: [String: State] = [:]
    /// The colours pictures are drawn in; nil draws placeholders (no colours, or pictures off).
    @ObservationIgnored public let palette: CharacterArt.Palette?
    @ObservationIgnored private let symbols: CharacterArt.Symbols
    @ObservationIgnored private var cellAspect: Double
    @ObservationIgnored private let loader: ImageLoader?
    /// Pictures in pixels, when the terminal shows them.
    @ObservationIgnored private var pixels: PixelImages?
    /// Counts refits: a frame that drew a picture is drawn again after one.
    private var fit = 0
    @ObservationIgnored private var loads: [String: Task<Void, Never>] = [:]
    @ObservationIgnored private var art: [ArtKey: [Cell]] = [:]
    @ObservationIgnored private var artOrder: [ArtKey] = []

    private struct ArtKey: Hashable {
        var link: String
        var size: Size
    }
    /// Pictures kept decoded here; past it, the ones the last frame did not show are let go
    /// (the loader and the disk cache still have them).
    static let capacity = 120
    /// Rendered pictures kept (one per picture and size).
    static let artCapacity = 600

    /// - Parameters:
    ///   - loader: where pictures come from; nil never loads (placeholders only).
    ///   - palette: the terminal's colours for pictures; nil draws placeholders.
    ///   - symbols: the symbols pictures are drawn with (`--symbols`).
    ///   - cellAspect: a cell's width over its height, from the terminal when it says.
    ///   - pixels: pictures in pixels (kitty, sixel, iTerm2); nil draws character art.
    public init(
        loader: ImageLoader?, palette: CharacterArt.Palette?, symbols: CharacterArt.Symbols = .blocks,
        cellAspect: Double = CharacterArt.defaultCellAspect, pixels: PixelImages? = nil
    ) {
        self.loader = palette == nil ? nil : loader
        self.pixels = palette == nil ? nil : pixels
        self.palette = palette
        self.symbols = symbols
        self.cellAspect = cellAspect
    }

    /// Pictures off: placeholders everywhere (no colours, tests, the benchmark).
    public static func placeholders() -> Pictures { Pictures(loader: nil, palette: nil) }

    /// The terminal answered after the pictures were set up: draw them for its cell shape and
    /// in its pixels from now on (the frames showing pictures are drawn again).
    func refit(cellAspect: Double, pixels: PixelImages?) {
        guard palette != nil else { return }  // pictures off stay off
        self.cellAspect = cellAspect
        self.pixels = pixels
        art = [:]
        artOrder = []
        fit += 1
    }

    /// True while any picture is being fetched or decoded.
    public var isLoading: Bool { !loads.isEmpty }

    /// The picture at `link` over `size` cells, once it has arrived: in pixels when the terminal
    /// shows them and the picture is encoded, else character art; nil while it loads, when it
    /// failed, or when pictures are off.
    func drawing(for link: String, size: Size) -> Drawing? {
        _ = fit
        guard let art = cells(for: link, size: size) else { return nil }
        guard let pixels, case .ready(let image) = states[link],
            let placement = pixels.placement(for: link, size: size, image: { (image.rgba, image.width, image.height) })
        else {
            return .cells(art)
        }
        switch placement {
        case .cells(let placeholders): return .cells(placeholders)
        case .overlay(let id): return .overlay(art, image: id)
        }
    }

    /// The picture at `link` as `size` cells of character art, once it has arrived.
    private func cells(for link: String, size: Size) -> [Cell]? {
        guard let palette, case .ready(let image) = states[link] else { return nil }
        let key = ArtKey(link: link, size: size)
        if let cached = art[key] { return cached }
        let cells = CharacterArt.cells(
            rgba: image.rgba, width: image.width, height: image.height,
            columns: size.width, rows: size.height, palette: palette, symbols: symbols, cellAspect: cellAspect)
        art[key] = cells
        artOrder.append(key)
        if artOrder.count > Self.artCapacity {
            artOrder.prefix(Self.artCapacity / 2).forEach { art[$0] = nil }
            artOrder.removeFirst(Self.artCapacity / 2)
        }
        return cells
    }

    /// Starts loading the pictures the last frame drew, in the order drawn, and stops loads of
    /// pictures no longer on screen.
    public func want(_ links: [String]) {
        guard let loader else { return }
        let wanted = Set(links)
        for (link, task) in loads where !wanted.contains(link) {
            task.cancel()
            loads[link] = nil
            states[link] = nil
        }
        if states.count > Self.capacity {
            for (link, state) in states where !wanted.contains(link) {
                if case .loading = state { continue }
                states[link] = nil
            }
            art = art.filter { wanted.contains($0.key.link) }
            artOrder.removeAll { !wanted.contains($0.link) }
        }
        for link in links where states[link] == nil {
            states[link] = .loading
            loads[link] = Task { [weak self] in
                let state: State
                do { state = .ready(try await loader.image(for: link)) } catch { state = .failed }
                guard !Task.isCancelled else { return }
                self?.states[link] = state
                self?.loads[link] = nil
            }
        }
    }
}
