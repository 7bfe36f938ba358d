import NIOSSL
import PostgresNIO

extension PostgresAddress {
    /// The pool's settings: where to connect and how to encrypt, as ``tlsMode`` says.
    func clientConfiguration() throws(Problem) -> PostgresClient.Configuration {
        if let socketPath {
            return .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        let tls: PostgresClient.Configuration.TLS =
            switch try tlsSettings() {
            case nil: .disable
            case (.prefer, let settings)?: .prefer(settings)
            case (_, let settings)?: .require(settings)
            }
        return .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// The same settings for a connection of its own (the one that listens for changes).
    func connectionConfiguration() throws(Problem) -> PostgresConnection.Configuration {
        if let socketPath {
            return .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch try tlsSettings() {
        case nil: tls = .disable
        case (let mode, let settings)?:
            let context: NIOSSLContext
            do { context = try NIOSSLContext(configuration: settings) } catch {
                throw Problem("TLS to PostgreSQL cannot be set up: \(error)")
            }
            tls = mode == .prefer ? .prefer(context) : .require(context)
        }
        return .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// What a TLS failure means in words, for `error` (what a connection threw or held as its cause).
    func tlsFailure(_ error: any Error) -> String? {
        let authorities = rootCertificatePath.map { "the authorities in \($0)" } ?? "the system's authorities"
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate does not name \(host) (sslmode=verify-full checks the name)"
        }
        if case .handshakeFailed(let reason)? = error as? NIOSSLError {
            return "\(reason)".contains("CERTIFICATE_VERIFY_FAILED")
                ? "the server's certificate is not signed by \(authorities) (sslmode=\(tlsMode.rawValue))"
                : "the TLS handshake failed: \(reason)"
        }
        return nil
    }

    /// What TLS checks, by libpq's rules: `prefer` checks nothing; `require` checks the chain only
    /// when `sslrootcert` is given; `verify-ca` the chain; `verify-full` the chain and the host name.
    /// Nil for `disable` (and over a Unix socket, which libpq never encrypts).
    private func tlsSettings() throws(Problem) -> (TLSMode, TLSConfiguration)? {
        var settings = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable: return nil
        case .prefer: settings.certificateVerification = .none
        case .require:
            settings.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: settings.certificateVerification = .noHostnameVerification
        case .verifyFull: settings.certificateVerification = .fullVerification
        }
        if let path = rootCertificatePath, tlsMode != .prefer {
            do { settings.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path)) } catch {
                throw Problem("sslrootcert \(path) cannot be read as PEM certificates (\(error))")
            }
        }
        return (tlsMode, settings)
    }
}
