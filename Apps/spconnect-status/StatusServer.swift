import AuthFlow
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

    static let usage = """
        usage: spconnect-status [--profile P] [--port N] [--bind ADDRESS [--allow-remote]] [--insecure] [--cacert FILE]
                                [--columns A,B,...] [--refresh SECONDS]

        Serves a small status page of the profile's saved SharePoint session on http://127.0.0.1:PORT
        (the session, its cookies' expiry, lists, picture galleries, /status.json for monitors), until
        SIGINT or SIGTERM. The first line printed is the URL.

          --profile P       the saved session to watch (default: default; see 'spconnect login')
          --port N          the port (default: 0, a free one)
          --bind ADDRESS    the IPv4 address to listen on (default 127.0.0.1)
          --allow-remote    allow an address beyond loopback; a random access token is then required in the URL
          --insecure        do not verify TLS certificates of SharePoint
          --cacert FILE     trust the CA certificates in FILE
          --columns A,B     show these columns on list pages (internal or display names; a list without any of
                            them shows its default view's columns, as every list does without this option)
          --refresh SECONDS reload the session page every SECONDS (5-86400; default: never)

        Set SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_FILE (mode 0600) to offer "Sign in again" and to renew
        the session when it ends.
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses the arguments after the program name; `nil` means help was asked.
    /// `--name=value` is the same as `--name value`.
    static func parse(_ given: [String]) throws(UsageError) -> StatusOptions? {
        let arguments = given.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        var options = StatusOptions()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return nil
            case "--profile": options.profile = try value(argument)
            case "--bind": options.bind = try value(argument)
            case "--port":
                let text = try value(argument)
                guard let port = UInt16(text) else { throw UsageError(description: "--port needs a number 0-65535") }
                options.port = port
            case "--allow-remote": options.allowRemote = true
            case "--insecure": options.insecure = true
            case "--cacert": options.caFile = try value(argument)
            case "--columns":
                let names = try value(argument).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
                guard !names.isEmpty else {
                    throw UsageError(description: "--columns needs field names separated by commas, e.g. Title,Status")
                }
                options.columns = names
            case "--refresh":
                let text = try value(argument)
                guard let seconds = Int(text), (5...86400).contains(seconds) else {
                    throw UsageError(description: "--refresh needs a number of seconds from 5 to 86400, not '\(text)'")
                }
                options.refreshSeconds = seconds
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
            index += 1
        }
        return options
    }
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
            throw StatusOptions.UsageError(
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
        if let refusal = passwordFileRefusal(environment: ProcessInfo.processInfo.environment) {
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
