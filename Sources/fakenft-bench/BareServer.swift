import Foundation
import Hummingbird
import NIOCore

/// Hummingbird with nothing of ours: one route per file of a folder, answering its bytes, no
/// middleware. `make bench-server` measures it beside `fakenft serve` and nginx on the same
/// bytes: what the framework itself costs on this machine, the floor under any answer through
/// the router.
enum BareServer {
    /// Serves every file in `folder` at `/<name>` on `port` until the process is stopped.
    static func serve(folder: URL, port: Int) async throws {
        let router = Router()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let body = ByteBuffer(bytes: try Data(contentsOf: folder.appendingPathComponent(name)))
            router.get(RouterPath(name)) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: body))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
