import ArgumentParser
import FakeNFTServer
import Logging
import Synchronization

/// `fakenft serve`'s SIGHUP: its file read again over the same environment and command line.
/// What may change while the server runs is applied (``LiveSettings``); an option that cannot
/// (a port, the data folder, the database) is said and kept as it runs; a file that cannot be
/// used is said, and everything kept.
final class ServeReload: Sendable {
    private let commandLine: [String]
    private let environment: [String: String]
    private let path: String
    private let log: Logger
    /// The file's options as the server started with them, and as last applied.
    private let files: Mutex<(started: [OptionFile.Entry], applied: [OptionFile.Entry])>

    /// - Parameters:
    ///   - commandLine: `serve` and its options, as typed.
    ///   - file: the file as read at start (nil when it could not be).
    init(commandLine: [String], environment: [String: String], path: String, file: OptionFile?, log: Logger) {
        self.commandLine = commandLine
        self.environment = environment
        self.path = path
        self.log = log
        files = Mutex((file?.entries ?? [], file?.entries ?? []))
    }

    /// The configuration the file gives now, or nil when it cannot be used.
    func configuration() -> ServerConfiguration? {
        let file: OptionFile?
        let layers: OptionLayers
        let configuration: ServerConfiguration
        do {
            file = try ServeLayers.file(commandLine, environment: environment)
            layers = try ServeLayers.layers(commandLine, environment: environment, file: file)
            guard let command = try FakeNFTCommand.parseAsRoot(["serve"] + layers.arguments) as? ServeCommand else {
                return nil
            }
            configuration = try command.serverConfiguration(environment: environment)
        } catch {
            let reason =
                (error as? ServeLayers.Problem)?.description ?? "\(path): \(FakeNFTCommand.message(for: error))"
            log.warning("not reloaded: \(reason); everything kept as it runs")
            return nil
        }
        let outside = layers.givenOutsideTheFile
        let (fromStart, fromLast) = files.withLock { files in
            let now = file?.entries ?? []
            defer { files.applied = now }
            return (file?.changed(from: files.started) ?? [], file?.changed(from: files.applied) ?? [])
        }
        let fixed = fromStart.filter { !LiveSettings.optionNames.contains($0) && !outside.contains($0) }
        let applied = fromLast.filter { LiveSettings.optionNames.contains($0) && !outside.contains($0) }
        let what = applied.isEmpty ? "nothing to change" : "applied " + applied.joined(separator: ", ")
        log.info("reloaded \(path): \(what)")
        if !fixed.isEmpty {
            let names = fixed.joined(separator: ", ")
            log.warning("\(path): \(names) cannot change while the server runs: kept as started (restart to apply)")
        }
        return configuration
    }
}
