import Foundation
import SPSim
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect login --user NAME --certificate FILE`: Entra's certificate-based authentication against spsim's
/// tenant over https, with Tests/LiveIdP/certauth/certauth_host.py as the certauth endpoint (Python's TLS asks for
/// the client certificate in the handshake; spsim cannot), on 127.0.0.52. The tenant trusts one CA; certificates
/// from another CA, a revoked one, and one naming another user are refused with Entra's codes (exit 3); the key is
/// in no output.
@Suite(
    .childProcesses, .serialized,
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
struct CertificateSignInCLITests {
    static let script: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LiveIdP/certauth/certauth_host.py").path
    }()

    /// The certificates, the certauth host and the tenant of one test.
    final class World {
        let folder: String
        let sim: Simulator
        let bundle: String
        let hostPID: pid_t
        let hostLog: String
        /// The certauth host's `host:port`: another origin than Entra's, so the user allows it (`--allow-host`).
        let certauthAuthority: String
        let environment: [String: String]

        init() async throws {
            let folder = try temporaryDirectory("cba")
            func openssl(_ arguments: [String]) async throws {
                _ = try await TestAppCredential.openssl(arguments)
            }
            func path(_ name: String) -> String { folder + "/" + name }
            // The tenant's CA, another CA, the certauth host's certificate, and the users' certificates.
            for (name, subject) in [("ca", "/CN=Contoso Users CA"), ("other", "/CN=Elsewhere CA")] {
                try await openssl([
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path(name + ".key"), "-out",
                    path(name + ".pem"), "-subj", subject, "-days", "2",
                ])
            }
            func issue(_ name: String, subject: String, extensions: String, by ca: String, serial: String) async throws
            {
                try Data(extensions.utf8).write(to: URL(fileURLWithPath: path(name + ".ext")))
                try await openssl([
                    "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path(name + ".key"), "-out", path(name + ".csr"),
                    "-subj", subject,
                ])
                try await openssl([
                    "x509", "-req", "-in", path(name + ".csr"), "-CA", path(ca + ".pem"), "-CAkey", path(ca + ".key"),
                    "-set_serial", serial, "-days", "2", "-extfile", path(name + ".ext"), "-out", path(name + ".pem"),
                ])
                chmod(path(name + ".key"), 0o600)
            }
            try await issue(
                "server", subject: "/CN=certauth", extensions: "subjectAltName=IP:127.0.0.52\n", by: "ca",
                serial: "0x100")
            let user = "subjectAltName=email:alice@contoso.test\nextendedKeyUsage=clientAuth\n"
            try await issue("alice", subject: "/CN=Alice", extensions: user, by: "ca", serial: "0x1001")
            try await issue("revoked", subject: "/CN=Alice", extensions: user, by: "ca", serial: "0x1002")
            try await issue("forged", subject: "/CN=Alice", extensions: user, by: "other", serial: "0x1003")
            try await issue(
                "bob", subject: "/CN=Bob",
                extensions: "subjectAltName=email:bob.mfa@contoso.test\nextendedKeyUsage=clientAuth\n", by: "ca",
                serial: "0x1004")
            let secret = Array(UUID().uuidString.utf8)
            try Data(secret).write(to: URL(fileURLWithPath: path("secret")))

            // The certauth host first: spsim names its address.
            let hostLog = path("certauth.log")
            let portFile = path("port")
            let arguments = [
                CertificateSignInCLITests.script, "--listen", "127.0.0.52", "--port-file", portFile, "--cert",
                path("server.pem"), "--key", path("server.key"), "--trusted-ca", path("ca.pem"), "--other-ca",
                path("other.pem"), "--secret-file", path("secret"), "--login-url", "PLACEHOLDER", "--revoked",
                "1002", "--log", hostLog, "--pid-file", path("pid"),
            ]
            var users = [SimulatedUser].defaults
            users[0].certificateAuth = CertificateAuthProfile()
            var options = SimulatorOptions(mode: .entra, users: users, tls: true)
            // The host's port is not known before it starts, nor spsim's login URL before spsim does: the host is
            // started with spsim's address once spsim listens, and spsim learns the host's through its options'
            // endpoint, set before the first sign-in.
            options.certificateAuthEndpoint = CertificateAuthEndpoint(
                url: "https://127.0.0.52:1/x/certauth", secret: secret)
            let sim = try Simulator(options)
            var started = arguments
            started[started.firstIndex(of: "PLACEHOLDER")!] = sim.identityProviderURL + "/common/login"
            Task.detached {
                _ = await spawnToExit(
                    "/usr/bin/python3", started, environment: ProcessInfo.processInfo.environment,
                    timeout: .seconds(600))
            }
            var port: String?
            for _ in 0..<100 where port == nil {
                try await Task.sleep(for: .milliseconds(50))
                port = try? String(contentsOfFile: portFile, encoding: .ascii)
            }
            let hostPort = try #require(port, "certauth_host.py did not start")
            let hostPID = pid_t(try String(contentsOfFile: path("pid"), encoding: .ascii)) ?? 0
            sim.setCertificateAuthEndpoint(
                CertificateAuthEndpoint(url: "https://127.0.0.52:\(hostPort)/\(sim.tenantId)/certauth", secret: secret))
            let bundle = path("bundle.pem")
            let trusted =
                (sim.certificatePEM ?? "") + "\n" + (try String(contentsOfFile: path("ca.pem"), encoding: .utf8))
            try Data(trusted.utf8).write(to: URL(fileURLWithPath: bundle))
            self.folder = folder
            self.sim = sim
            self.bundle = bundle
            self.hostPID = hostPID
            self.hostLog = hostLog
            certauthAuthority = "127.0.0.52:\(hostPort)"
            environment = ["XDG_STATE_HOME": folder + "/state", "HOME": folder + "/state"]
        }

        deinit {
            if hostPID > 0 { kill(hostPID, SIGTERM) }
            sim.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }

        func login(_ user: String, certificate: String) async throws -> RunResult {
            try await runSpconnect(
                [
                    "login", "--site", sim.siteURL, "--user", user, "--certificate", folder + "/\(certificate).pem",
                    "--key", folder + "/\(certificate).key", "--cacert", bundle, "--trace", folder + "/trace.jsonl",
                    "--allow-host", certauthAuthority,
                ], environment: environment)
        }

        var hostDecisions: [String] {
            ((try? String(contentsOfFile: hostLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("listening") }
        }
    }

    @Test func theUsersCertificateSignsInAndOthersAreRefusedWithEntrasCodes() async throws {
        let world = try await World()
        let signedIn = try await world.login("alice@contoso.test", certificate: "alice")
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(
            world.hostDecisions.last?.hasPrefix("accepted upn=alice@contoso.test") == true, "\(world.hostDecisions)")
        let who = try await runSpconnect(["whoami", "--cacert", world.bundle], environment: world.environment)
        #expect(who.status == 0 && who.stdout.contains("alice@contoso.test"), "\(who.stdout) \(who.stderr)")

        for (certificate, user, code) in [
            ("forged", "alice@contoso.test", "50017"), ("revoked", "alice@contoso.test", "50017"),
            ("bob", "alice@contoso.test", "50034"),
        ] {
            let refused = try await world.login(user, certificate: certificate)
            #expect(refused.status == 3, "\(certificate): \(refused.stderr)")
            #expect(refused.stderr.contains(code), "\(certificate): \(refused.stderr)")
        }
        #expect(world.hostDecisions.filter { $0.hasPrefix("refused code=50017") }.count == 2, "\(world.hostDecisions)")

        // No key in any output, trace, session or record.
        let state = world.folder + "/state"
        let saved = (FileManager.default.enumerator(atPath: state)?.allObjects as? [String] ?? []).map { name in
            (try? String(contentsOfFile: state + "/" + name, encoding: .utf8)) ?? ""
        }
        #expect(saved.count >= 2, "the session and its record were looked at")
        let trace = (try? String(contentsOfFile: world.folder + "/trace.jsonl", encoding: .utf8)) ?? ""
        for name in ["alice", "revoked", "forged", "bob"] {
            let key = try String(contentsOfFile: world.folder + "/\(name).key", encoding: .utf8)
            for line in key.split(separator: "\n") where !line.hasPrefix("-----") {
                #expect(!signedIn.stdout.contains(line) && !signedIn.stderr.contains(line) && !trace.contains(line))
                #expect(!saved.contains { $0.contains(line) }, "\(name)'s key is in the state folder")
            }
        }
    }

    @Test func aCertificateKeyOthersCanReadIsRefusedBeforeAnythingIsSent() async throws {
        let world = try await World()
        chmod(world.folder + "/alice.key", 0o644)
        let result = try await world.login("alice@contoso.test", certificate: "alice")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("chmod 600"), "\(result.stderr)")
        #expect(world.hostDecisions.isEmpty, "\(world.hostDecisions)")
    }
}
