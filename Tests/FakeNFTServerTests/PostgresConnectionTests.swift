import FakeNFTModels
import FakeNFTServer
import FakeNFTTesting
import Foundation
import Testing

/// `--database` read as libpq reads a connection URI, completed from the `PG*` variables.
@Suite struct PostgresAddressTests {
    @Test func theAddressGivesEveryPartAndTheParametersTheRest() throws {
        let address = try PostgresAddress(
            "postgresql://ann:p%40ss@db.example.com:6543/shop?sslmode=verify-full&sslrootcert=/etc/ca.pem",
            environment: [:])
        #expect(address.user == "ann" && address.password == "p@ss")
        #expect(address.host == "db.example.com" && address.port == 6543 && address.database == "shop")
        #expect(address.tlsMode == .verifyFull && address.rootCertificatePath == "/etc/ca.pem")
        #expect(address.socketPath == nil)
        #expect(address.description == "postgres://ann@db.example.com:6543/shop?sslmode=verify-full", "no password")
    }

    @Test func whatTheAddressLeavesOutComesFromThePGVariables() throws {
        let environment = [
            "PGHOST": "pg.internal", "PGPORT": "6000", "PGUSER": "svc", "PGPASSWORD": "secret",
            "PGDATABASE": "fakenft", "PGSSLMODE": "require", "PGSSLROOTCERT": "/run/ca.pem",
        ]
        let fromVariables = try PostgresAddress("postgres://", environment: environment)
        #expect(fromVariables.host == "pg.internal" && fromVariables.port == 6000 && fromVariables.user == "svc")
        #expect(fromVariables.password == "secret" && fromVariables.database == "fakenft")
        #expect(fromVariables.tlsMode == .require && fromVariables.rootCertificatePath == "/run/ca.pem")
        let overridden = try PostgresAddress("postgres://ann@db:5433/shop?sslmode=disable", environment: environment)
        #expect(overridden.user == "ann" && overridden.host == "db" && overridden.port == 5433)
        #expect(overridden.database == "shop" && overridden.tlsMode == .disable)
        #expect(overridden.password == "secret", "a password only from PGPASSWORD, as libpq")
    }

    @Test func aVariableWithControlCharactersIsRefused() {
        #expect {
            try PostgresAddress("postgres://ann@/shop", environment: ["PGHOST": "db\u{1b}]52;c;x\u{07}"])
        } throws: { "\($0)" == "PGHOST may not hold control characters" }
    }

    @Test func libpqsDefaults() throws {
        let address = try PostgresAddress("postgres://ann@db", environment: [:])
        #expect(address.port == 5432 && address.database == "ann" && address.tlsMode == .prefer)
        #expect(address.password == nil && address.rootCertificatePath == nil)
    }

    @Test func keepalivesIdlePoolMaxConnsAndQueryTimeoutSetThePool() throws {
        let address = try PostgresAddress(
            "postgres://ann@db/shop?pool_max_conns=8&keepalives_idle=45&query_timeout=30", environment: [:])
        #expect(address.keepaliveSeconds == 45 && address.poolSize == 8 && address.queryTimeout == .seconds(30))
        #expect(
            address.description
                == "postgres://ann@db:5432/shop?sslmode=prefer&keepalives_idle=45&pool_max_conns=8&query_timeout=30")
        let defaults = try PostgresAddress("postgres://ann@db/shop", environment: [:])
        #expect(defaults.keepaliveSeconds == nil && defaults.poolSize == 20 && defaults.queryTimeout == .seconds(10))
    }

    @Test func aHostThatIsAFolderIsAUnixSocket() throws {
        let encoded = try PostgresAddress("postgres://ann@%2Fvar%2Frun%2Fpostgresql/shop", environment: [:])
        #expect(encoded.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        let parameter = try PostgresAddress("postgresql:///shop?host=/tmp/pg&port=6000&user=ann", environment: [:])
        #expect(parameter.socketPath == "/tmp/pg/.s.PGSQL.6000" && parameter.database == "shop")
        #expect(parameter.description == "postgres://ann@/shop?host=/tmp/pg&port=6000&sslmode=prefer")
        let variable = try PostgresAddress("postgres://ann@/shop", environment: ["PGHOST": "/tmp/pg"])
        #expect(variable.socketPath == "/tmp/pg/.s.PGSQL.5432")
        let ipv6 = try PostgresAddress("postgres://ann@[::1]:6000/shop", environment: [:])
        #expect(ipv6.host == "::1" && ipv6.port == 6000 && ipv6.socketPath == nil)
    }

    @Test(arguments: [
        ("http://ann@db/shop", "not a PostgreSQL address"),
        ("postgres://ann@db:0/shop", "port"),
        ("postgres://ann@db:99999/shop", "port"),
        ("postgres://ann@db:x/shop", "port"),
        ("postgres://ann@db/shop?sslmode=allow", "sslmode must be one of"),
        ("postgres://ann@db/shop?sslmode=bogus", "sslmode must be one of"),
        ("postgres://ann@db/shop?application_name=x", "'application_name' is not a parameter"),
        ("postgres://ann@db/shop?sslmode", "'sslmode' is not a parameter"),
        ("postgres://ann@db/shop?keepalives_idle=0", "keepalives_idle must be a number of seconds"),
        ("postgres://ann@db/shop?keepalives_idle=86401", "keepalives_idle must be a number of seconds"),
        ("postgres://ann@db/shop?keepalives_idle=30s", "keepalives_idle must be a number of seconds"),
        ("postgres://ann@db/shop?pool_max_conns=0", "pool_max_conns must be a number of connections"),
        ("postgres://ann@db/shop?pool_max_conns=1001", "pool_max_conns must be a number of connections"),
        ("postgres://ann@db/shop?query_timeout=0", "query_timeout must be a number of seconds"),
        ("postgres://ann@db/shop?query_timeout=1.5", "query_timeout must be a number of seconds"),
        ("postgres://ann@db1,db2/shop", "several hosts"),
        ("postgres://ann@db/a/b", "not a PostgreSQL address"),
        ("postgres://ann@[::1/shop", "unclosed"),
        ("postgres://ann@db/shop%1b%5b2J", "control characters"),
        ("postgres://ann@db/shop%zz", "%-escape"),
    ])
    func aBadAddressSaysWhatIsWrong(address: String, problem: String) {
        #expect(throws: PostgresAddress.Problem.self) { try PostgresAddress(address, environment: [:]) }
        do {
            _ = try PostgresAddress(address, environment: [:])
        } catch {
            #expect(error.description.contains(problem), "\(error)")
        }
    }
}

/// What scripts/with-postgres.sh says of its cluster.
private let clusterEnvironment = ProcessInfo.processInfo.environment

/// TLS to a PostgreSQL that demands it (the test cluster's `fakenft_tls` may connect only over
/// TLS, with a certificate for "localhost" signed by the cluster's own CA), and a Unix socket.
@Suite(
    .enabled(
        if: !TestStore.isPostgres && clusterEnvironment["FAKENFT_TEST_POSTGRES_TLS"] != nil,
        "the PostgreSQL test cluster (make test)"))
struct PostgresTLSTests {
    private let address = clusterEnvironment["FAKENFT_TEST_POSTGRES_TLS"] ?? ""
    private let authority = clusterEnvironment["FAKENFT_TEST_POSTGRES_CA"] ?? ""
    private let otherAuthority = clusterEnvironment["FAKENFT_TEST_POSTGRES_OTHER_CA"] ?? ""

    /// Starts a server on `url`, reads and changes through it; the refusal's text when it cannot start.
    private func serve(_ url: String) async throws -> String? {
        let server: TestServer
        do { server = try await TestServer.start(postgresURL: url) } catch { return "\(error)" }
        let read = try await server.request("GET", "/api/v1/collections").status
        let change = try await server.request("PUT", "/api/v1/profile/1", body: "name=Over TLS").status
        await server.stop()
        #expect(read == 200 && change == 200)
        return nil
    }

    @Test func requireConnects() async throws {
        #expect(try await serve(address + "?sslmode=require") == nil)
        #expect(try await serve(address) == nil, "prefer, the default, takes the TLS offered")
    }

    @Test func verifyFullWithTheRightAuthorityConnects() async throws {
        #expect(try await serve(address + "?sslmode=verify-full&sslrootcert=\(authority)") == nil)
        #expect(try await serve(address + "?sslmode=verify-ca&sslrootcert=\(authority)") == nil)
    }

    @Test func verifyFullRefusesACertificateForAnotherHost() async throws {
        let byAddress = address.replacingOccurrences(of: "@localhost:", with: "@127.0.0.1:")
        let refusal = try #require(try await serve(byAddress + "?sslmode=verify-full&sslrootcert=\(authority)"))
        #expect(refusal.contains("the server's certificate does not name 127.0.0.1"), "\(refusal)")
        #expect(try await serve(byAddress + "?sslmode=verify-ca&sslrootcert=\(authority)") == nil, "no name check")
    }

    @Test func anotherAuthorityIsRefused() async throws {
        let refusal = try #require(try await serve(address + "?sslmode=verify-ca&sslrootcert=\(otherAuthority)"))
        #expect(refusal.contains("not signed by the authorities in \(otherAuthority)"), "\(refusal)")
    }

    @Test func withoutTLSTheServerRefuses() async throws {
        let refusal = try #require(try await serve(address + "?sslmode=disable"))
        #expect(refusal.contains("no encryption"), "the server's reason: \(refusal)")
    }

    @Test func anUnreadableAuthorityFileIsSaidAtOnce() async throws {
        let refusal = try #require(try await serve(address + "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"))
        #expect(refusal.contains("/nonexistent/ca.pem"), "\(refusal)")
    }

    @Test func aUnixSocketConnects() async throws {
        let socketFolder = try #require(clusterEnvironment["FAKENFT_TEST_POSTGRES_SOCKET"])
        let database = TestStore.name(of: try TestStore.newDatabase())
        let cluster = try #require(TestStore.cluster)
        let user = try #require(URLComponents(string: cluster)?.user),
            port = try #require(URLComponents(string: cluster)?.port)
        #expect(try await serve("postgres://\(user)@/\(database)?host=\(socketFolder)&port=\(port)") == nil)
    }
}
