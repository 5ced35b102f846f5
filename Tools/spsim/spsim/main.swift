import CommandLineKit
import Foundation
import SPSim

/// `spsim --mode MODE [options]` (`spsim --help`): prints the site URL as the first line of stdout and serves until
/// SIGINT/SIGTERM or stdin closes.

extension OptionKey {
    static let mode = OptionKey(named: "mode")
    static let port = OptionKey(named: "port")
    static let idpPort = OptionKey(named: "idp-port")
    static let federationPort = OptionKey(named: "federation-port")
    static let users = OptionKey(named: "users")
    static let items = OptionKey(named: "items")
    static let exportFiles = OptionKey(named: "export-files")
    static let sites = OptionKey(named: "sites")
    static let latency = OptionKey(named: "latency")
    static let faults = OptionKey(named: "faults")
    static let tls = OptionKey(named: "tls")
    static let seed = OptionKey(named: "seed")
    static let legacyRefused = OptionKey(named: "legacy-refused")
    static let log = OptionKey(named: "log")
    static let appCertificate = OptionKey(named: "app-certificate")
    static let tokenLifetime = OptionKey(named: "token-lifetime")
    static let deviceCodeInterval = OptionKey(named: "device-code-interval")
    static let budgets = OptionKey(named: "budgets")
    static let fido = OptionKey(named: "fido")
    static let version = OptionKey(named: "version")
    static let help = OptionKey(named: "help")
}

/// spsim's command line, declared once (the parser, its checks and `--help` come from it).
let command = CommandDescription(
    name: "spsim",
    summary: "A SharePoint site and its identity provider on loopback. Prints the site URL as the first line of "
        + "stdout and serves until SIGINT or SIGTERM. SPEC: latency=MS,status429=N,status503=N,status500=N,"
        + "retryAfter=S,noRetryAfter,drop=PATH,dropTimes=N,drip=PATH,dripDelay=MS,cookieLifetime=S,digestLifetime=S,"
        + "redirectLoop",
    synopsis: "--mode MODE [options]",
    options: [
        .choice(.mode, "MODE", of: SignInMode.self, "the sign-in the site asks for (required)"),
        .integer(.port, "N", in: 0...65535, "the site's port (default: a free one)"),
        .integer(.idpPort, "N", in: 0...65535, "the identity provider's port"),
        .integer(.federationPort, "N", in: 0...65535, "the federated ADFS's port (--mode entra only)"),
        .path(.users, "FILE", "the users, as JSON"),
        .integer(.items, "N", in: 0...10_000_000, "items of the generated list 'Big'"),
        .integer(.exportFiles, "N", in: 0...1_000_000, "files of the 'Export' library"),
        .value(.sites, "NAME,NAME", "site collections besides the root"),
        .integer(.latency, "MS", in: 0...60_000, "added before every answer"),
        .value(.faults, "SPEC", "injected misbehaviour (see above)"),
        .flag(.tls, "serve https with a self-signed certificate"),
        .integer(.seed, "N", in: 0...Int.max, "the content's seed"),
        .flag(.legacyRefused, "refuse the legacy SOAP and IDCRL sign-ins"),
        .flag(.log, "log every request on standard error"),
        .repeatable(.appCertificate, "FILE", values: .path, "register a certificate for every confidential app"),
        .integer(.tokenLifetime, "S", in: 1...86_400, "access token lifetime"),
        .integer(.deviceCodeInterval, "S", in: 1...300, "device code polling interval"),
        .value(
            .budgets, "BUDGETS",
            "throttle by resource units as SharePoint Online does: app=U,appDay=U,tenant=U,tenantDay=U,retryAfter=S,"
                + "undecorated=SHARE (units per minute or day; '' is a small tenant: 1250, 1200000, 3750, 6000000)"),
        .value(
            .fido, "SWITCHES",
            "Entra's FIDO2/passkey switches: blocked,enforceAttestation,uvOptional,userAgents=A|B,rpId=HOST,origin=URL,"
                + "registrationOrigin=URL,challengeLifetime=S,noPageChallenge,noCrossDomainCanary,refusalCode=N"),
        .flag(.version, "print the version"),
        .flag(.help, short: "h", "show this help"),
    ])
let usage = command.help(program: "spsim")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("spsim: \(message)\n".utf8))
    exit(2)
}

var options = SimulatorOptions(mode: .entra)
let arguments: ParsedArguments
do {
    arguments = try ParsedArguments(
        Array(CommandLine.arguments.dropFirst()), specs: command.options, program: "spsim", command: "")
    if let word = arguments.positionals.first { throw UsageError(description: "unknown argument '\(word)'") }
} catch {
    fail("\(error)\n\(usage)")
}
if arguments.has(.help) {
    print(usage)
    exit(0)
}
if arguments.has(.version) {
    print("spsim \(SPSimInfo.version)")
    exit(0)
}
let mode = (try? arguments.choice(.mode, as: SignInMode.self)) ?? nil
options.port = arguments.integer(.port).map(UInt16.init) ?? options.port
options.idpPort = arguments.integer(.idpPort).map(UInt16.init) ?? options.idpPort
options.federationPort = arguments.integer(.federationPort).map(UInt16.init) ?? options.federationPort
if let path = arguments.value(.users) {
    do { options.users = try [SimulatedUser].load(jsonFile: path) } catch {
        fail("cannot read users from \(path): \(error)")
    }
}
options.items = arguments.integer(.items) ?? options.items
options.exportFiles = arguments.integer(.exportFiles) ?? options.exportFiles
if let text = arguments.value(.sites) {
    let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard names.allSatisfy({ name in !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } })
    else { fail("--sites takes site names of letters, digits and '-', separated by commas") }
    options.siteCollections = names
}
options.latencyMilliseconds = arguments.integer(.latency) ?? options.latencyMilliseconds
if let spec = arguments.value(.faults) {
    do { options.faults = try FaultSpec(parsing: spec) } catch { fail("\(error)") }
}
options.tls = arguments.has(.tls)
options.seed = arguments.integer(.seed).map(UInt64.init) ?? options.seed
options.legacyRefused = arguments.has(.legacyRefused)
let logRequests = arguments.has(.log)
for path in arguments.all(.appCertificate) {
    // Registered for every confidential app of the tenant (the full-control, no-permission and read-only ones).
    guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    for index in options.apps.indices where !options.apps[index].publicClient {
        options.apps[index].certificatePEMs.append(pem)
    }
}
options.tokenLifetimeSeconds = arguments.integer(.tokenLifetime) ?? options.tokenLifetimeSeconds
options.deviceCodeIntervalSeconds = arguments.integer(.deviceCodeInterval) ?? options.deviceCodeIntervalSeconds
if let spec = arguments.value(.fido) {
    do { options.fido = try FidoOptions(parsing: spec) } catch { fail("\(error)") }
}
if let spec = arguments.value(.budgets) {
    do { options.resourceBudgets = try ResourceBudgetModel(parsing: spec) } catch { fail("\(error)") }
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
