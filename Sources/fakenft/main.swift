import FakeNFTApp
import Foundation
import TerminalUI

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    Usage: fakenft [--mouse]

    A terminal client for FakeNFT: browse collections, like, fill the cart and pay.

    Options:
      --mouse        report mouse clicks and the wheel (off by default, so text selection works)
      -h, --help     show this help
    """

var mouse = false
for argument in arguments {
    switch argument {
    case "--mouse": mouse = true
    case "-h", "--help": print(usage); exit(0)
    default:
        FileHandle.standardError.write(Data("fakenft: unknown option '\(argument)'\n\n\(usage)\n".utf8))
        exit(2)
    }
}

do {
    let session = try TerminalSession(options: .init(mouse: mouse))
    let shell = AppShell(tabs: ["Catalog", "Cart", "Profile", "Statistics"].map {
        AppShell.Tab(title: $0, root: PlaceholderScreen(title: $0))
    })
    let loop = AppLoop(session: session, shell: shell)
    await loop.run()
    session.shutdown()
    if let signal = session.exitSignal { exit(128 + signal) }
} catch {
    FileHandle.standardError.write(Data("fakenft: \(error)\n".utf8))
    exit(1)
}
