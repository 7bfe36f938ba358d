import FakeNFTCore
import Foundation

/// Timing samples and the figures printed from them.
struct Samples {
    private(set) var values: [Double] = []
    mutating func add(_ value: Double) { values.append(value) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
    var median: Double { percentile(0.5) }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func report(_ name: String, _ value: String) {
    print("\(name.padding(toLength: 58, withPad: " ", startingAt: 0)) \(value)")
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

/// A state folder where onboarding was seen and "continue without an account" chosen for
/// `server` (the app's own files, as a first start leaves them): the benchmarks time the tabs.
func stateFolderPastWelcome(server: String) throws -> URL {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("fakenft-bench-state-\(UUID().uuidString)")
    let folder = base.appendingPathComponent("fakenft")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    OnboardingRecord(fileURL: folder.appendingPathComponent("onboarding-done")).markDone()
    try AccountStore(fileURL: folder.appendingPathComponent("account.json")).save(
        SavedSignIn(server: server, account: nil))
    return base
}

/// The CPU time process `pid` has used, in clock ticks (user and system).
func cpuTicks(_ pid: String) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
    return Int(fields[11])! + Int(fields[12])!  // utime, stime
}

/// A benchmark that could not measure what it names, and why (printed in place of its figure).
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}
