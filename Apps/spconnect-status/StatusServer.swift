import AppSupport
import AuthFlow
import CommandLineKit
import Foundation
import HTTPServer
import Transport

#if canImport(Glibc)
    import Glibc
#endif

/// The command line of `spconnect-status` (and of `spconnect status --serve`, which can reuse this type whole).
struct StatusOptions: Equatable {
    var profile = "default"
    var bind = "127.0.0.1"
    var port: UInt16 = 0
    var allowRemote = false
    var insecure = false
    var caFile: String?
    /// `--columns`: the columns of every list page that has them (internal or display names), in order.
    var columns: [String]?
    /// `--refresh`: the session page reloads itself every so many seconds (off by default).
    var refreshSeconds: Int?

    /// The options, declared once: the parser, `--help` and their checks come from here.
    static let command = CommandDescription(
        name: "spconnect-status",
        summary: "Serves a small status page of the profile's saved SharePoint session on http://127.0.0.1:PORT (the "
            + "session, its cookies' expiry, lists, picture galleries, /status.json for monitors), until SIGINT or "
            + "SIGTERM. The first line printed is the URL.",
        synopsis:
            "[--profile P] [--port N] [--bind ADDRESS [--allow-remote]] [--insecure] [--cacert FILE] "
            + "[--columns A,B,...] [--refresh SECONDS]",
        options: [
            .value(.profile, "P", values: .profile, "the saved session to watch (see 'spconnect login')")
                .defaulting("default"),
            .integer(.port, "N", in: 0...65535, "the port (default: 0, a free one)"),
            .value(.bind, "ADDRESS", "the IPv4 address to listen on (default 127.0.0.1)"),
            .flag(.allowRemote, "allow an address beyond loopback; a random access token is then required in the URL"),
            .flag(.insecure, "do not verify TLS certificates of SharePoint"),
            .path(.cacert, "FILE", "trust the CA certificates in FILE"),
            .value(
                .columns, "A,B",
                "show these columns on list pages (internal or display names; a list without any of them shows its "
                    + "default view's columns, as every list does without this option)"),
            .integer(.refresh, "SECONDS", in: 5...86400, "reload the session page every SECONDS (default: never)"),
            .flag(.help, short: "h", "show this help"),
        ])

    static let usage =
        command.help(program: "spconnect-status") + "\n\n"
        + "Set SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_FILE (mode 0600) to offer \"Sign in again\" and to renew\n"
        + "the session when it ends."

    /// Parses the arguments after the program name; `nil` means help was asked.
    /// `--name=value` is the same as `--name value`.
    static func parse(_ given: [String]) throws(UsageError) -> StatusOptions? {
        let arguments = try ParsedArguments(given, specs: command.options, program: "spconnect-status", command: "")
        if arguments.has(.help) { return nil }
        if let word = arguments.positionals.first {
            throw UsageError(description: "unknown argument '\(word)'")
        }
        var options = StatusOptions()
        options.profile = arguments.value(.profile) ?? options.profile
        options.bind = arguments.value(.bind) ?? options.bind
        options.port = arguments.integer(.port).map(UInt16.init) ?? options.port
        options.allowRemote = arguments.has(.allowRemote)
        options.insecure = arguments.has(.insecure)
        options.caFile = arguments.value(.cacert)
        if let text = arguments.value(.columns) {
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard !names.isEmpty else {
                throw UsageError(description: "--columns needs field names separated by commas, e.g. Title,Status")
            }
            options.columns = names
        }
        options.refreshSeconds = arguments.integer(.refresh)
        return options
    }
}

/// The status app's option names.
extension OptionKey {
    static let profile = OptionKey(named: "profile")
    static let port = OptionKey(named: "port")
    static let bind = OptionKey(named: "bind")
    static let allowRemote = OptionKey(named: "allow-remote")
    static let insecure = OptionKey(named: "insecure")
    static let cacert = OptionKey(named: "cacert")
    static let columns = OptionKey(named: "columns")
    static let refresh = OptionKey(named: "refresh")
    static let help = OptionKey(named: "help")
}

/// A running status app: the HTTP server, the app behind it, and the URL to open.
final class StatusServer: Sendable {
    let app: StatusApp
    let server: HTTPServer
    /// The URL to open, with `?token=` when the app listens beyond loopback.
    let url: String

    /// Starts listening. Beyond loopback only with `allowRemote`, and then with a random access token.
    init(options: StatusOptions, session: StatusSession) throws {
        let isLoopback = options.bind.hasPrefix("127.")
        guard isLoopback || options.allowRemote else {
            throw UsageError(
                description:
                    "refusing to listen on \(options.bind): the status page shows your session; only loopback is"
                    + " allowed unless --allow-remote is given (a random access token is then required)")
        }
        let token = isLoopback ? nil : randomToken()
        // On loopback the Host header is checked (DNS rebinding); beyond it the access token is the guard, and
        // the machine may be reached by any of its names.
        let hostNames: Set<String>? = isLoopback ? ["127.0.0.1", "localhost", options.bind] : nil
        let app = StatusApp(
            session: session, accessToken: token, hostNames: hostNames, columns: options.columns,
            refreshSeconds: options.refreshSeconds)
        let server = try HTTPServer(address: options.bind, port: options.port, allowNonLoopback: options.allowRemote) {
            request in app.handle(request)
        }
        app.hosts?.listening(on: server.port)
        self.app = app
        self.server = server
        // 0.0.0.0 is no address to open: name the machine instead.
        let host = options.bind == "0.0.0.0" ? (Self.machineName() ?? options.bind) : options.bind
        self.url = "\(server.scheme)://\(host):\(server.port)/" + (token.map { "?token=" + $0 } ?? "")
    }

    private static func machineName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    func stop() { server.stop() }

    /// The session configuration for `options`: the password from the chain every app uses (``StatusPasswords``),
    /// never from argv.
    static func sessionConfiguration(
        _ options: StatusOptions, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> StatusSession.Configuration {
        let store = SessionStore(environment: environment)
        let passwords = StatusPasswords(profile: options.profile, store: store, environment: environment)
        var configuration = StatusSession.Configuration(
            profile: options.profile, store: store,
            password: { passwords.next() },
            canSignIn: passwords.canSignIn,
            clientConfiguration: HTTPClient.Configuration(
                userAgent: environment["SPCONNECT_USER_AGENT"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? "NONISV|SPConnect|spconnect-status", caFile: options.caFile,
                insecureSkipTLSVerification: options.insecure))
        configuration.knownPasswords = { passwords.known }
        configuration.passwordProblem = { passwords.problem }
        configuration.environment = environment
        // Throttled together with the profile's spconnect runs: one budget, and a 429 one of them saw pauses the
        // app's reads too.
        configuration.clientConfiguration = ProfileThrottling.applied(
            to: configuration.clientConfiguration, store: store, profile: options.profile)
        // One-time codes for a second factor, from the same variables spconnect's renewals read (no terminal here).
        // A TOTP secret file that cannot be used is said at start, in `passwordFileRefusal`'s place.
        configuration.oneTimeCode = try? OneTimeCodeSources.source(
            command: environment["SPCONNECT_OTP_COMMAND"].flatMap { $0.isEmpty ? nil : $0 },
            totpSecretFile: environment["SPCONNECT_TOTP_SECRET_FILE"].flatMap { $0.isEmpty ? nil : $0 },
            prompt: nil, remember: passwords.remember,
            report: { request, reason in
                FileHandle.standardError.write(
                    Data(
                        "spconnect-status: SPCONNECT_OTP_COMMAND gave no code for \(request.fieldName): \(reason)\n"
                            .utf8))
            })
        return configuration
    }

    /// Why `SPCONNECT_PASSWORD_FILE` cannot be used, when it is named and `SPCONNECT_PASSWORD` is not set: said
    /// at start, rather than as "no password is available" at the first renewal.
    static func passwordFileRefusal(environment: [String: String]) -> String? {
        guard (environment["SPCONNECT_PASSWORD"] ?? "").isEmpty, let path = environment["SPCONNECT_PASSWORD_FILE"],
            !path.isEmpty
        else { return nil }
        do {
            _ = try PasswordFile.read(path)
            return nil
        } catch {
            return error.description
        }
    }

    /// Why `SPCONNECT_TOTP_SECRET_FILE` cannot be used (others may read it, or it holds no TOTP secret), when it is
    /// named and no `SPCONNECT_OTP_COMMAND` comes first: said at start, not at the first second factor.
    static func totpSecretFileRefusal(environment: [String: String]) -> String? {
        guard (environment["SPCONNECT_OTP_COMMAND"] ?? "").isEmpty,
            let path = environment["SPCONNECT_TOTP_SECRET_FILE"],
            !path.isEmpty
        else { return nil }
        do {
            _ = try OneTimeCodeSources.source(
                command: nil, totpSecretFile: path, prompt: nil, remember: { _ in }, report: { _, _ in })
            return nil
        } catch {
            return "SPCONNECT_TOTP_SECRET_FILE: \(error.description)"
        }
    }

    /// The whole command: parse, start, print the URL (first line, flushed), serve until SIGINT/SIGTERM.
    /// Returns the exit code.
    static func run(arguments: [String]) -> Int32 {
        let options: StatusOptions
        do {
            guard let parsed = try StatusOptions.parse(arguments) else {
                print(StatusOptions.usage)
                return 0
            }
            options = parsed
        } catch {
            FileHandle.standardError.write(Data("spconnect-status: \(error)\n\n\(StatusOptions.usage)\n".utf8))
            return 2
        }
        let environment = ProcessInfo.processInfo.environment
        if let refusal = passwordFileRefusal(environment: environment)
            ?? totpSecretFileRefusal(environment: environment)
        {
            FileHandle.standardError.write(Data("spconnect-status: \(refusal)\n".utf8))
            return 2
        }
        // Block the signals before any thread starts, so only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let running: StatusServer
        do {
            let session = try StatusSession(sessionConfiguration(options))
            running = try StatusServer(options: options, session: session)
        } catch {
            FileHandle.standardError.write(Data("spconnect-status: \(error)\n".utf8))
            return 1
        }
        // The first line of standard output, written unbuffered: a script can read it at once.
        FileHandle.standardOutput.write(Data((running.url + "\n").utf8))
        FileHandle.standardError.write(
            Data("spconnect-status: serving profile '\(options.profile)'; press Ctrl-C to stop.\n".utf8))
        var received: Int32 = 0
        sigwait(&signals, &received)
        running.stop()
        FileHandle.standardError.write(Data("spconnect-status: stopped.\n".utf8))
        return 0
    }
}
