import FakeNFTCore
import Foundation
import Glibc
import Testing
import FakeNFTTesting

/// The Cart journey on the real binary, against `fakenft serve` so the test can read the profile.
@Suite(.serialized) struct CartEndToEndTests {
    /// A port nobody listens on now.
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, getsockname(fd, $0, &length) == 0 else { throw E2EError("no free port") }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func removeThroughTheDialogPayDeclinedThenPaid() async throws {
        let tmux = try Tmux(width: 100, height: 30)
        let port = try freePort()
        try tmux.type("\(Tmux.binary) serve --port \(port) --data server-data --quiet > server.log 2>&1 &")
        for _ in 0..<300 where !((try? tmux.file("server.log"))?.contains("listening") ?? false) { usleep(20_000) }
        do { try tmux.launchApp("--server http://127.0.0.1:\(port) 2> app-err.txt", waitingFor: "Cart [3]") } catch {
            throw E2EError("\(error)\nstderr: \((try? tmux.file("app-err.txt")) ?? "")")
        }
        try tmux.keys("2")
        try tmux.waitFor("3 NFT")
        try tmux.keys("d")
        try tmux.waitFor("Are you sure you want to remove this item from")
        try tmux.keys("Escape")                              // cancelled once: nothing removed
        try tmux.waitUntil("dialog closed") { !$0.contains("Are you sure") && $0.contains("3 NFT") }
        try tmux.keys("d")
        try tmux.waitFor("Are you sure you want to remove this item from")
        try tmux.keys("Left", "Enter")                       // Delete
        try tmux.waitFor("Cart [2]")
        try tmux.waitFor("2 NFT")
        try tmux.keys("p")
        try tmux.waitFor("Dogecoin")
        try tmux.keys("Right", "p")                          // Dogecoin fails in the default data
        try tmux.waitFor("Could not complete the payment")
        try tmux.keys("Escape")
        try tmux.waitUntil("dialog closed") { !$0.contains("Could not complete") }
        try tmux.keys("Left", "p")                           // Bitcoin succeeds
        try tmux.waitFor("congratulations on your purchase!")
        try tmux.keys("Enter")
        try tmux.waitFor("9 collections")
        try tmux.keys("2")
        try tmux.waitFor("Cart is empty")
        let api = APIClient(APIConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
        let order = try await api.order()
        let profile = try await api.profile()
        #expect(order.nfts.isEmpty)
        #expect(profile.nfts.count == 15, "13 owned + the 2 bought")
        try tmux.keys("q")
        try tmux.waitFor("EXIT=0")
        try tmux.type("kill %1")
    }
}
