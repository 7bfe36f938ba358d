import Foundation

// `make bench`: prints figures; nothing here passes or fails on timing.
// `fakenft-bench serve-files FOLDER PORT`: the bare Hummingbird server scripts/bench-server.sh
// measures (``BareServer``).
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "serve-files", let port = Int(arguments[3]) {
    try await BareServer.serve(folder: URL(fileURLWithPath: arguments[2]), port: port)
    exit(0)
}
let binary =
    CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fakenft").path

print("FakeNFT benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)\n")
print("Terminal")
TerminalBenchmarks.keyToFrame()
TerminalBenchmarks.wrapHugeText()
do { try TerminalBenchmarks.idleCPU(binary: binary) } catch { report("idle CPU", "failed: \(error)") }
do { try HostileServerBenchmarks.keysWhileRequestsHang(binary: binary) } catch {
    report("keys while requests hang", "failed: \(error)")
}
do { try await LongSessionBenchmarks.keyCostAfterLiveUpdates(binary: binary) } catch {
    report("key cost after live updates", "failed: \(error)")
}
do { try await LongSessionBenchmarks.fieldTypingCost(binary: binary) } catch {
    report("field typing cost", "failed: \(error)")
}
print("\nServer and client (server throughput against nginx: make bench-server)")
do {
    try await ServerBenchmarks.collectionWithLatency()
    try await ServerBenchmarks.coldStart()
    try await ServerBenchmarks.liveUpdate()
    print("\nStatistics")
    try await StatisticsBenchmarks.ratingList()
    print("\nGo-to (Ctrl-P)")
    try await GoToBenchmarks.largeShop()
    print("\nPictures")
    try PictureBenchmarks.decodeAndRender()
    try await PictureBenchmarks.collectionPictures()
    try await PictureBenchmarks.memoryAfterManyPictures()
    print(
        """
        \nPictures in pixels (reference: chafa 1.12 sixel 11-12 ms at 200×200, 30 ms at 400×400; smooth scrolling: \
        p99 under 16 ms)
        """
    )
    try PixelBenchmarks.encode()
    try await PixelBenchmarks.scrollSixelGrid()
} catch {
    report("the benchmarks from there on", "stopped: \(error)")
}
