import FakeNFTModels
import Glibc

/// The secrets of an SSH session's app (its token and the session's secret), which the server
/// gives on a descriptor instead of the environment (``SSHSessionVariables/secretsDescriptor``).
enum SSHSessionSecrets {
    /// `environment` with the secrets read from the descriptor it names (read to its end, at most
    /// ``SSHSessionVariables/secretsLimit`` bytes, then closed), when it is an SSH session's; the
    /// secrets' names given in the environment itself are dropped. Any other environment as it is.
    static func merged(into environment: [String: String]) -> [String: String] {
        guard SSHSessionVariables.isRemote(environment),
            let number = environment[SSHSessionVariables.secretsDescriptor].flatMap({ Int32($0) }), number > 2
        else { return environment }
        var merged = environment.filter { !SSHSessionVariables.secrets.contains($0.key) }
        merged[SSHSessionVariables.secretsDescriptor] = nil
        merged.merge(SSHSessionVariables.decodeSecrets(read(number))) { _, secret in secret }
        return merged
    }

    /// What descriptor `number` holds, to its end or the limit; then it is closed.
    private static func read(_ number: Int32) -> String {
        defer { close(number) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1_024)
        while bytes.count < SSHSessionVariables.secretsLimit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(number, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes.prefix(SSHSessionVariables.secretsLimit), as: UTF8.self)
    }
}
