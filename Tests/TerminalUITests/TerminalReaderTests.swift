import Glibc
import Testing

@testable import TerminalUI

@Suite struct TerminalReaderTests {
    func scalars(_ input: [RawInput]) -> String {
        String(
            String.UnicodeScalarView(input.compactMap { if case .char(let v) = $0 { Unicode.Scalar(v) } else { nil } }))
    }

    @Test func decodesUTF8AndKeepsACharacterCutByARead() {
        var reader = TerminalReader()
        let bytes = Array("aé€😀z".utf8)
        #expect(scalars(reader.decode(bytes)) == "aé€😀z")
        for cut in 1..<bytes.count {  // every place a read can end
            var reader = TerminalReader()
            let text = scalars(reader.decode(Array(bytes[..<cut]))) + scalars(reader.decode(Array(bytes[cut...])))
            #expect(text == "aé€😀z", "cut at \(cut)")
        }
    }

    @Test func dropsBytesThatAreNotUTF8() {
        var reader = TerminalReader()
        // a stray continuation, an overlong slash, a surrogate, a start without its continuation, C1 as a byte
        let hostile: [UInt8] = [0x80, 0x61, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x62, 0xE2, 0x63, 0x9B, 0x64]
        #expect(scalars(reader.decode(hostile)) == "abcd")
        #expect(scalars(reader.decode([0xF0, 0x9F])) == "")
        #expect(scalars(reader.decode([0x41])) == "A", "a cut character that never ends is dropped")
    }

    @Test func readsAWholeBacklogInOneDrain() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        let backlog = [UInt8](repeating: UInt8(ascii: "j"), count: 60_000)
        #expect(backlog.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == backlog.count)
        var reader = TerminalReader()
        #expect(reader.drain(fds[0]).count == backlog.count)
        #expect(reader.drain(fds[0]).isEmpty, "nothing more: no wait")
    }
}
