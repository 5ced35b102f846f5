import Foundation
import SPSim

/// `spsim --mode MODE [--port N] [--idp-port N] [--federation-port N] [--users FILE] [--items N] [--latency MS] [--faults SPEC] [--tls]`
/// Prints the site URL as the first line of stdout and serves until SIGINT/SIGTERM or stdin closes.

let usage = """
    usage: spsim --mode MODE [--port N] [--idp-port N] [--federation-port N] [--users FILE] [--items N]
                 [--export-files N] [--sites NAME,NAME…] [--latency MS] [--faults SPEC] [--tls] [--seed N] [--legacy-refused] [--log]
                 [--app-certificate FILE]... [--token-lifetime S] [--device-code-interval S]
      MODE: \(SignInMode.allCases.map(\.rawValue).joined(separator: ", "))
      SPEC: latency=MS,status429=N,status503=N,status500=N,retryAfter=S,noRetryAfter,drop=PATH,
            dropTimes=N,drip=PATH,dripDelay=MS,cookieLifetime=S,digestLifetime=S,redirectLoop

    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("spsim: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var mode: SignInMode?
var options = SimulatorOptions(mode: .entra)
var logRequests = false

@MainActor func value(_ flag: String) -> String {
    guard !arguments.isEmpty else { fail("\(flag) needs a value") }
    return arguments.removeFirst()
}

@MainActor func number<T: FixedWidthInteger>(_ flag: String, as type: T.Type) -> T {
    let text = value(flag)
    guard let parsed = T(text) else { fail("\(flag) needs a number, got '\(text)'") }
    return parsed
}

while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    switch flag {
    case "--mode":
        let text = value(flag)
        guard let parsed = SignInMode(rawValue: text) else { fail("unknown mode '\(text)'\n\(usage)") }
        mode = parsed
    case "--port": options.port = number(flag, as: UInt16.self)
    case "--idp-port": options.idpPort = number(flag, as: UInt16.self)
    case "--federation-port": options.federationPort = number(flag, as: UInt16.self)
    case "--users":
        let path = value(flag)
        do { options.users = try [SimulatedUser].load(jsonFile: path) } catch {
            fail("cannot read users from \(path): \(error)")
        }
    case "--items": options.items = number(flag, as: Int.self)
    case "--export-files": options.exportFiles = number(flag, as: Int.self)
    case "--sites":
        let names = value(flag).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.allSatisfy({ name in !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } })
        else { fail("--sites takes site names of letters, digits and '-', separated by commas") }
        options.siteCollections = names
    case "--latency": options.latencyMilliseconds = number(flag, as: Int.self)
    case "--faults":
        do { options.faults = try FaultSpec(parsing: value(flag)) } catch { fail("\(error)") }
    case "--tls": options.tls = true
    case "--seed": options.seed = number(flag, as: UInt64.self)
    case "--legacy-refused": options.legacyRefused = true
    case "--app-certificate":
        // Registered for every confidential app of the tenant (the full-control, no-permission and read-only ones).
        let path = value(flag)
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
        for index in options.apps.indices where !options.apps[index].publicClient {
            options.apps[index].certificatePEMs.append(pem)
        }
    case "--token-lifetime": options.tokenLifetimeSeconds = number(flag, as: Int.self)
    case "--device-code-interval": options.deviceCodeIntervalSeconds = number(flag, as: Int.self)
    case "--log": logRequests = true
    case "--version":
        print("spsim \(SPSimInfo.version)")
        exit(0)
    case "--help", "-h":
        print(usage)
        exit(0)
    default: fail("unknown argument '\(flag)'\n\(usage)")
    }
}

guard let mode else { fail("--mode is required\n\(usage)") }
options.mode = mode
if mode != .entra, options.federationPort != 0 {
    fail(
        "--federation-port applies to --mode entra only (federated users' ADFS); in \(mode.rawValue) mode there is none"
    )
}

let simulator: Simulator
do { simulator = try Simulator(options) } catch { fail("cannot start: \(error)") }

FileHandle.standardOutput.write(Data((simulator.siteURL + "\n").utf8))
if let pem = simulator.certificatePEM {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-\(getpid()).pem").path
    if FileManager.default.createFile(atPath: path, contents: Data(pem.utf8)) {
        FileHandle.standardError.write(Data("spsim: certificate written to \(path)\n".utf8))
    }
}
// In `entra` mode federated users' ADFS has its own host (127.0.0.3); elsewhere it is the identity provider's.
let federation =
    simulator.federationURL == simulator.identityProviderURL ? "" : ", federated ADFS \(simulator.federationURL)"
FileHandle.standardError.write(
    Data(
        "spsim \(SPSimInfo.version): mode \(mode.rawValue), identity provider \(simulator.identityProviderURL)\(federation)\n"
            .utf8))

@MainActor func shutdown() {
    simulator.stop()
    exit(0)
}

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
interrupt.setEventHandler { MainActor.assumeIsolated { shutdown() } }
interrupt.resume()
let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
terminate.setEventHandler { MainActor.assumeIsolated { shutdown() } }
terminate.resume()

// stdin closing (the parent went away) also stops the simulator. Only watched when stdin is a pipe, socket
// or terminal: a background job in a script gets /dev/null, which is "closed" from the start.
var stdinStatus = stat()
let watchStdin =
    isatty(0) == 1
    || (fstat(0, &stdinStatus) == 0
        && ((stdinStatus.st_mode & S_IFMT) == S_IFIFO || (stdinStatus.st_mode & S_IFMT) == S_IFSOCK))
if watchStdin {
    let running = simulator
    Thread.detachNewThread {
        while true {
            let data = FileHandle.standardInput.availableData
            if data.isEmpty { break }
        }
        running.stop()
        exit(0)
    }
}

if logRequests {
    let simulator = simulator
    Thread.detachNewThread {
        var seen = 0
        while true {
            let log = simulator.requestLog()
            for entry in log.dropFirst(seen) {
                FileHandle.standardError.write(
                    Data("\(entry.status) \(entry.method) \(entry.host) \(entry.path)\n".utf8))
            }
            seen = log.count
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}

dispatchMain()
