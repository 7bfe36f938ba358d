import FakeNFTModels
import FakeNFTRequests
import Foundation

/// Gives arbitrary bytes to every parser of request input (query strings, paging, form and
/// JSON bodies, id lists, the PROXY protocol's line before SSH) and checks what each promises. A trap is a finding.
enum RequestFuzzer {
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        if let query = try? ListQuery(parameters: QueryString.parse(Substring(text))) {
            for count in [0, 1, 95, 10_000, Int(data.first ?? 0) << 8] {
                let window = query.window(count: count)
                precondition(window.lowerBound >= 0 && window.upperBound <= count, "a page outside the list")
                precondition(window.count <= (query.size ?? count), "a page longer than its size")
            }
            precondition(query.page >= 0 && (query.size ?? 1) > 0 && (query.size ?? 0) <= ListQuery.maxSize)
        }
        for contentType in ["application/json", "application/x-www-form-urlencoded", nil] {
            guard let fields = try? RequestFields(body: data, contentType: contentType) else { continue }
            for key in ["likes", "nfts", "name", "description", "website", "avatar"] {
                precondition(
                    fields.list(key)?.allSatisfy { !$0.isEmpty && !$0.contains(",") } ?? true, "an empty or unsplit id")
                _ = fields.string(key)
            }
        }
        precondition(IDList.split(text).allSatisfy { !$0.isEmpty })
        if let client = ProxyHeader.clientAddress(Substring(text)) {
            precondition(text.utf8.count <= ProxyHeader.maxLength, "a PROXY line longer than the protocol allows")
            precondition(client.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }, "not an address: \(client)")
        }
    }
}

#if FUZZING
    // `make fuzz` builds with `-sanitize=fuzzer,address -parse-as-library -DFUZZING`. SwiftPM names an
    // executable's entry point `<module>_main`; here it hands over to libFuzzer's driver.

    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    @_cdecl("fakenft_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        return runFuzzerDriver(&argc, &argv, fuzzOneInput)
    }

    /// libFuzzer's callback for one input.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        RequestFuzzer.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
#else
    /// Without libFuzzer: runs the inputs in the files given (a corpus, or a crash to reproduce).
    @main struct ReplayInputs {
        static func main() throws {
            let paths = CommandLine.arguments.dropFirst()
            for path in paths { RequestFuzzer.run(try Data(contentsOf: URL(fileURLWithPath: path))) }
            print("fakenft-fuzz: \(paths.count) inputs, no finding")
        }
    }
#endif
