import Foundation
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// A SharePoint site (127.0.0.1) and its identity provider (127.0.0.2), served over real loopback HTTP; in `entra`
/// mode also the ADFS of federated users' own organisation (127.0.0.3).
///
/// Thread-safety: all methods may be called from any thread; requests are handled on the servers'
/// per-connection threads and share state under one lock.
public final class Simulator: Sendable {
    let core: SimulatorCore
    private let servers: [HTTPServer]
    /// The self-signed certificate (PEM) every server presents when `tls` is on; trust it in clients
    /// (it covers IP SANs 127.0.0.1, 127.0.0.2 and 127.0.0.3).
    public let certificatePEM: String?

    /// Starts the servers. Throws when a port is taken or TLS material cannot be made. Quick without `tls`; with it,
    /// blocks the calling thread while `/usr/bin/openssl` makes a key and certificate (a fraction of a second).
    public init(_ options: SimulatorOptions) throws {
        let core = SimulatorCore(options: options)
        let tls = options.tls ? try TLSMaterial.selfSigned() : nil
        let site = try HTTPServer(address: "127.0.0.1", port: options.port, tls: tls) { request in
            core.handle(request, host: .site)
        }
        let idp: HTTPServer
        var federation: HTTPServer?
        do {
            idp = try HTTPServer(address: "127.0.0.2", port: options.idpPort, tls: tls) { request in
                core.handle(request, host: .identityProvider)
            }
            // Only Entra sends federated users elsewhere; every other mode keeps ADFS (if any) on 127.0.0.2.
            if options.mode == .entra {
                do {
                    federation = try HTTPServer(address: "127.0.0.3", port: options.federationPort, tls: tls) {
                        request in
                        core.handle(request, host: .federation)
                    }
                } catch {
                    idp.stop()
                    throw error
                }
            }
        } catch {
            site.stop()
            throw error
        }
        core.configure(
            siteURL: site.baseURL, identityProviderURL: idp.baseURL,
            federationURL: federation?.baseURL ?? idp.baseURL)
        self.core = core
        self.servers = [site, idp] + (federation.map { [$0] } ?? [])
        self.certificatePEM = tls?.certificatePEM
    }

    /// The site URL, e.g. `http://127.0.0.1:40123` (the site collection is at the root).
    public var siteURL: String { core.siteURL }
    /// The identity provider's base URL, e.g. `http://127.0.0.2:40124`.
    public var identityProviderURL: String { core.identityProviderURL }
    /// The base URL of the ADFS that federated users sign in at: in `entra` mode their organisation's own host,
    /// e.g. `http://127.0.0.3:40125`, named by GetCredentialType's `FederationRedirectUrl` (and GetUserRealm's
    /// `AuthURL`); in every other mode the identity provider's URL (ADFS, where there is one, lives there).
    public var federationURL: String { core.federationURL }
    /// The simulated Entra tenant id (a GUID from the seed), as in `{idp}/{tenant}/oauth2/authorize`.
    public var tenantId: String { core.tenantId }
    /// The ADFS relying-party realm of the site (`urn:sharepoint:spsim`).
    public var realm: String { core.realm }
    /// The sign-in mode the simulator was started with.
    public var mode: SignInMode { core.options.mode }

    /// Stops every server and returns once no handler runs any more. **Blocks the calling thread** until then (a
    /// request with simulated latency or a dripping body finishes first): from async code use `await stop()`.
    /// Calling it twice, or from several threads, is harmless.
    public func stop() {
        for server in servers { server.stop() }
    }

    /// Stops like `stop()`, suspending instead of blocking a thread of the cooperative pool.
    public func stop() async {
        for server in servers { await server.stop() }
    }

    /// Every request received so far, in order of completion (at most the newest 100 000).
    public func requestLog() -> [LoggedRequest] { core.state.withLock { $0.log } }

    /// Forgets the request log.
    public func clearRequestLog() { core.state.withLock { $0.log.removeAll() } }

    /// Forgets every FedAuth / SPOIDCRL session and access token: the next REST call with an old cookie gets
    /// 403 (401 with an old bearer token).
    public func expireSessions() {
        core.state.withLock {
            $0.sessions.removeAll()
            $0.accessTokens.removeAll()
            $0.entra.revokedTokenIds.formUnion($0.entra.issuedTokenIds)
        }
    }

    // MARK: The Entra tenant's test hooks

    /// Registers `certificatePEM` for the app `appId` (as an admin uploads it under Certificates & secrets).
    public func registerCertificate(_ certificatePEM: String, appId: String) {
        core.state.withLock { $0.entra.certificates[appId, default: []].append(certificatePEM) }
    }

    /// What the next device codes do when polled (see ``DeviceCodeScript``).
    public func setDeviceCodeScript(_ script: DeviceCodeScript) {
        core.state.withLock { $0.entra.deviceScript = script }
    }

    /// Issues every later access token for `audience` instead of the resource asked for (nil: the resource), to
    /// show what SharePoint says to a token for another resource.
    public func issueTokens(forAudience audience: String?) {
        core.state.withLock { $0.entra.audienceOverride = audience }
    }

    /// Revokes every refresh token (as a password reset or an admin's "revoke sessions" does): the next refresh
    /// answers `invalid_grant`.
    public func revokeRefreshTokens() {
        core.state.withLock { $0.entra.refreshTokens.removeAll() }
    }

    /// Grants an app with `Sites.Selected` `role` (`read`, `write`, `manage`, `fullcontrol`) on this site, as
    /// `POST https://graph.microsoft.com/v1.0/sites/{siteId}/permissions` does; nil takes the grant away.
    public func grantSite(_ role: String?, toApp appId: String) {
        core.state.withLock { $0.entra.siteGrants[appId.lowercased()] = role?.lowercased() }
    }

    /// The client assertions the token endpoint received, oldest first (they are spent: each `jti` works once).
    public func receivedClientAssertions() -> [String] { core.state.withLock { $0.entra.assertions } }

    /// Server-relative URL of the biggest file, 52,428,800 bytes generated from the seed as they are sent.
    public static let largeFileURL = "/Shared Documents/" + SiteContent.largeFileName

    /// The length of the file at `serverRelativeURL` as it would be served now; nil when there is no such file.
    public func fileLength(serverRelativeURL: String) -> Int? {
        core.fileByURL(core.normalizedServerRelative(serverRelativeURL))?.content.length
    }

    /// Bytes `offset..<offset+count` (cut at the end of the file) of the file at `serverRelativeURL`, exactly as
    /// `…/$value` serves them; generated content is computed for that range only. Nil when there is no such file.
    public func fileBytes(serverRelativeURL: String, offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, let file = core.fileByURL(core.normalizedServerRelative(serverRelativeURL))
        else { return nil }
        return file.content.slice(offset, count)
    }

    deinit { stop() }
}

/// Self-signed certificate for `--tls`, made with `/usr/bin/openssl` in a temporary directory.
enum TLSMaterial {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func selfSigned() throws -> (certificatePEM: String, keyPEM: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let cert = directory.appendingPathComponent("cert.pem").path
        let status = runQuietly(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,IP:127.0.0.2,IP:127.0.0.3",
            ])
        guard status >= 0 else { throw Failure(description: "cannot run /usr/bin/openssl") }
        guard status == 0 else { throw Failure(description: "openssl failed to make a certificate") }
        return (try String(contentsOfFile: cert, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8))
    }
}

/// Runs `executable` with `arguments`, standard input, output and error on `/dev/null`, and waits for it (blocking
/// the calling thread); its exit status, or -1 when it could not be started or was killed. posix_spawn, not
/// Foundation's `Process`, whose `run()` crashes now and then in this toolchain in a process holding many
/// descriptors (a test run with many simulators open).
func runQuietly(_ executable: String, _ arguments: [String]) -> Int32 {
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Recording file actions fails only for want of memory; a failed open makes posix_spawn fail.
    _ = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    _ = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    _ = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { return -1 }
    }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

/// A signed-in SharePoint session (FedAuth or SPOIDCRL value).
struct SPSession {
    var user: Int
    var expires: Int
}

/// An Entra sign-in in progress, keyed by its `sCtx`.
struct EntraFlow {
    var ctx: String
    var flowToken: String
    var canary: String
    var redirectURI: String
    var state: String
    var nonce: String
    var user: Int?
    var stage: String
    /// The second-factor exchange under way on this flow (BeginAuth to ProcessAuth).
    var secondFactor: SecondFactorExchange?
}

/// Mutable simulator state (guarded by `SimulatorCore.state`).
struct SimulatorState {
    var siteURL = ""
    var identityProviderURL = ""
    var federationURL = ""
    var lists: [SPList] = []
    var files: [SPFile] = []
    /// Folders made with `Folders/add` (server-relative URLs as created, below a list's root folder), and their time.
    var createdFolders: [(url: String, created: Int)] = []
    var sessions: [String: SPSession] = [:]
    var flows: [String: EntraFlow] = [:]
    /// OIDC code → (user, id_token)
    var codes: [String: (user: Int, idToken: String)] = [:]
    /// OIDC state → Source path
    var oidcStates: [String: String] = [:]
    /// ESTSAUTH / ESTSAUTHPERSISTENT cookie value → user and expiry (single sign-on at the IdP)
    var idpSessions: [String: (user: Int, expires: Int)] = [:]
    /// One-time-code pages (ADFS, SharePoint forms) waiting for their code: ticket → user and wrong codes so far
    var pendingCodes: [String: (user: Int, wrong: Int)] = [:]
    /// Password posts Entra accepted, per user e-mail (lower-cased): the sign-ins that needed a password.
    var passwordSignIns: [String: Int] = [:]
    /// SAML assertion id → user
    var assertions: [String: Int] = [:]
    /// legacy compact token → user
    var legacyTokens: [String: Int] = [:]
    /// Outstanding NTLM server challenges
    var ntlmChallenges: [(challenge: [UInt8], issued: Int)] = []
    /// Verified NTLM Type 3 headers → (user, expiry), so one request can ask more than once
    var ntlmVerified: [String: SPSession] = [:]
    /// OAuth access token → session (SharePoint Online modes)
    var accessTokens: [String: SPSession] = [:]
    /// App registrations' certificates, device codes, refresh tokens, the signing key (EntraApps.swift)
    var entra = EntraState()
    /// form digest → expiry
    var digests: [String: Int] = [:]
    /// FBA view state → expected event validation
    var viewStates: Set<String> = []
    var uploads: [String: [UInt8]] = [:]
    var log: [LoggedRequest] = []
    var apiRequests = 0
    var dropped = 0
}

/// Which server a request reached.
enum SimulatedHost {
    /// 127.0.0.1: SharePoint.
    case site
    /// 127.0.0.2: Entra (or, in `adfs` mode, ADFS; the legacy STS).
    case identityProvider
    /// 127.0.0.3 (`entra` mode only): the ADFS of federated users' organisation.
    case federation
}

/// The shared brain of all servers.
final class SimulatorCore: @unchecked Sendable {
    let options: SimulatorOptions
    let state = Locked(SimulatorState())
    let tenantId: String
    let webId: String
    let siteId: String
    let realm = "urn:sharepoint:spsim"
    /// Most request-log entries kept (the older half is dropped when full).
    static let logLimit = 100_000
    /// Site users: SharePoint user id for options.users[index] is `10 + index`.
    var users: [SimulatedUser] { options.users }

    init(options: SimulatorOptions) {
        self.options = options
        tenantId = stableGUID(options.seed, "tenant")
        webId = stableGUID(options.seed, "web")
        siteId = stableGUID(options.seed, "site")
        let content = SiteContent.build(
            seed: options.seed, bigItems: options.items, userIds: options.users.indices.map { 10 + $0 })
        state.withLock {
            $0.lists = content.lists
            $0.files = content.files
        }
    }

    func configure(siteURL: String, identityProviderURL: String, federationURL: String) {
        state.withLock {
            $0.siteURL = siteURL
            $0.identityProviderURL = identityProviderURL
            $0.federationURL = federationURL
        }
    }

    var siteURL: String { state.withLock { $0.siteURL } }
    var identityProviderURL: String { state.withLock { $0.identityProviderURL } }
    var federationURL: String { state.withLock { $0.federationURL } }
    var isTLS: Bool { options.tls }
    var sessionLifetime: Int { options.faults.cookieLifetimeSeconds ?? 36000 }

    // MARK: Users

    func userIndex(login: String) -> Int? {
        let wanted = login.lowercased().trimmingCharacters(in: .whitespaces)
        return users.firstIndex {
            $0.email.lowercased() == wanted || $0.accountName.lowercased() == wanted
                || "contoso\\" + $0.accountName.lowercased() == wanted
        }
    }

    func checkPassword(login: String, password: String) -> Int? {
        guard let index = userIndex(login: login), users[index].password == password else { return nil }
        return index
    }

    func spUserId(_ index: Int) -> Int { 10 + index }

    // MARK: Dispatch

    func handle(_ request: HTTPServerRequest, host: SimulatedHost) -> HTTPServerResponse {
        let delay = options.latencyMilliseconds + options.faults.latencyMilliseconds
        if delay > 0 { usleep(UInt32(min(delay, 60000)) * 1000) }
        var response: HTTPServerResponse
        switch host {
        case .site: response = handleSharePoint(request)
        case .identityProvider: response = handleIdentityProvider(request)
        case .federation: response = handleFederation(request)
        }
        response = applyBodyFaults(response, path: request.path)
        record(request, status: response.status)
        return response
    }

    func record(_ request: HTTPServerRequest, status: Int) {
        let contentType = request.header("Content-Type")?.lowercased() ?? ""
        let fields =
            contentType.contains("x-www-form-urlencoded")
            ? request.formFields.map { LoggedField(name: $0.name, value: $0.value) } : []
        let entry = LoggedRequest(
            method: request.method, host: request.serverAddress, path: request.path, query: request.rawQuery,
            headerNames: request.headers.map(\.name), formFields: fields, cookies: request.cookies, status: status)
        state.withLock { state in
            // Keep memory bounded on long benchmark runs: the newest entries win.
            if state.log.count >= SimulatorCore.logLimit { state.log.removeFirst(state.log.count / 2) }
            state.log.append(entry)
        }
    }

    /// Connection drops and slow drip, applied to any answer whose path matches.
    func applyBodyFaults(_ response: HTTPServerResponse, path: String) -> HTTPServerResponse {
        let faults = options.faults
        let lower = path.lowercased()
        if let drop = faults.dropPath, lower.contains(drop.lowercased()) {
            let shouldDrop = state.withLock { state -> Bool in
                if let limit = faults.dropTimes, state.dropped >= limit { return false }
                state.dropped += 1
                return true
            }
            if shouldDrop {
                var changed = response
                let producer = BodyProducer(response.body)
                let total = producer.length ?? 2048
                let cut = Counter()
                changed.body = .stream(length: max(total, 2)) {
                    if cut.next() == 0 {
                        let half = producer.take(max(total / 2, 1))
                        return half.isEmpty ? .abort : .data(half)
                    }
                    return .abort
                }
                return changed
            }
        }
        if let drip = faults.dripPath, lower.contains(drip.lowercased()) {
            var changed = response
            let producer = BodyProducer(response.body)
            let delay = faults.dripDelayMilliseconds
            changed.body = .stream(length: producer.length) {
                let bytes = producer.take(1024)
                if bytes.isEmpty { return .end }
                usleep(UInt32(delay) * 1000)
                return .data(bytes)
            }
            return changed
        }
        return response
    }
}

/// A monotonically increasing counter for stream producers.
final class Counter: @unchecked Sendable {
    private let value = Locked(0)
    func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// Re-chunks any body (bytes or stream) into pieces of a chosen size.
final class BodyProducer: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var upstream: (@Sendable () -> HTTPServerResponse.Chunk)?
    let length: Int?

    init(_ body: HTTPServerResponse.Body) {
        switch body {
        case .bytes(let bytes):
            buffer = bytes
            length = bytes.count
        case .stream(let length, let next):
            self.length = length
            upstream = next
        }
    }

    func take(_ count: Int) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        while buffer.count < count, let upstream {
            switch upstream() {
            case .data(let bytes): buffer += bytes
            case .end, .abort: self.upstream = nil
            }
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(taken.count)
        return taken
    }
}
