import Foundation
import HTTPServer

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

    /// What the resource budgets did so far (``SimulatorOptions/resourceBudgets``): units answered, 429s and 503s.
    public func resourceBudgetReport() -> ResourceBudgetReport { core.resourceBudgets.withLock { $0.report } }

    /// How many registration interrupts were skipped (`/SkipMfaRegistration`).
    public var skippedRegistrations: Int { core.state.withLock { $0.skippedRegistrations } }

    /// Adds `milliseconds` before every answer from now on, on top of the options' latency (a benchmark signs in
    /// and lists fast, then measures a transfer behind a realistic server time).
    public func setLatency(milliseconds: Int) { core.addedLatency.store(milliseconds, ordering: .relaxed) }

    /// The most requests the simulator has been answering at the same moment since it started or since
    /// ``resetPeakConcurrentRequests()`` (a client's promise of at most N in flight, checked from the server's side).
    public var peakConcurrentRequests: Int { core.peakInFlight.load(ordering: .relaxed) }

    /// Starts counting ``peakConcurrentRequests`` again.
    public func resetPeakConcurrentRequests() { core.peakInFlight.store(0, ordering: .relaxed) }

    /// Answers the next `count` REST requests (those with a query value containing `text`, when given) 429 with the
    /// fault spec's `Retry-After`: throttling in the middle of a job, where `FaultSpec.status429` throttles its
    /// first requests.
    public func throttle(next count: Int, whereQueryContains text: String? = nil) {
        core.throttling.withLock { $0 = (count, text) }
    }

    /// Replaces the options' throttling, server errors, drops and drip with `faults` from now on, counted from the
    /// next request (`status429 = 3`: the next three `/_api` requests answer 429): faults that come and go while a
    /// long test or a soak runs. `FaultSpec()` switches them off.
    public func injectFaults(_ faults: FaultSpec) {
        core.state.withLock { state in
            state.injectedFaults = faults
            state.apiRequests = 0
            state.dropMatches = 0
            state.dropped = 0
        }
    }

    /// Forgets the request log.
    public func clearRequestLog() { core.state.withLock { $0.log.removeAll() } }

    /// Forgets every FedAuth / SPOIDCRL session and access token: the next REST call with an old cookie gets
    /// 403 (401 with an old bearer token).
    public func expireSessions() {
        core.state.withLock { $0.endSessions() }
    }

    // MARK: The Entra tenant's test hooks

    /// Registers `certificatePEM` for the app `appId` (as an admin uploads it under Certificates & secrets).
    public func registerCertificate(_ certificatePEM: String, appId: String) {
        core.state.withLock { $0.entra.certificates[appId, default: []].append(certificatePEM) }
    }

    /// What the next device codes do when polled (see ``DeviceCodeScript``).
    /// Names the certauth endpoint from now on (a host started after the simulator, whose port was not known).
    public func setCertificateAuthEndpoint(_ endpoint: CertificateAuthEndpoint) {
        core.state.withLock { $0.certificateAuthEndpoint = endpoint }
    }

    public func setDeviceCodeScript(_ script: DeviceCodeScript) {
        core.state.withLock { $0.entra.deviceScript = script }
    }

    /// Gives every later access token `seconds` to live instead of the options' lifetime (nil: the options'), so a
    /// test can let one token expire and keep its renewal from expiring under load.
    public func setTokenLifetime(seconds: Int?) {
        core.state.withLock { $0.entra.tokenLifetimeOverride = seconds }
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
    /// The generated file made with ``SimulatorOptions/hugeFileMebibytes``.
    public static let hugeFileURL = "/Shared Documents/huge.bin"

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
