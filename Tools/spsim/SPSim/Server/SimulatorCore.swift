import Foundation
import HTTPServer
import Synchronization
import TransportValues

/// The shared brain of all servers: the options, and the mutable state under one mutex (handlers run on the servers'
/// per-connection threads).
final class SimulatorCore: Sendable {
    let options: SimulatorOptions
    /// Guarded by a pthread mutex (``PosixMutex``), which ThreadSanitizer understands: the connection threads of
    /// the sanitizer runs share it, and Synchronization's `Mutex` waits on futexes it does not see.
    let state = PosixMutex(SimulatorState())
    let tenantId: String
    let webId: String
    let siteId: String
    let realm = "urn:sharepoint:spsim"
    /// Milliseconds added before every answer from now on (``Simulator/setLatency(milliseconds:)``).
    let addedLatency = Atomic<Int>(0)
    /// Requests being answered now, and the most there have been at once (``Simulator/peakConcurrentRequests``).
    let inFlight = Atomic<Int>(0)
    let peakInFlight = Atomic<Int>(0)
    /// REST requests still to be answered 429, and the text a query value of theirs must hold
    /// (``Simulator/throttle(next:whereQueryContains:)``).
    let throttling = PosixMutex<(count: Int, queryText: String?)>((0, nil))
    /// The units spent against SharePoint Online's budgets (``SimulatorOptions/resourceBudgets``).
    let resourceBudgets = PosixMutex(ResourceBudgetState())
    /// When this core began: the budgets' windows are counted from here.
    let started = ContinuousClock.now
    /// Site users: SharePoint user id for options.users[index] is `10 + index`.
    var users: [SimulatedUser] { options.users }
    /// The server-relative path of this core's site collection: empty for the root site, `/sites/hr` for one of
    /// ``SimulatorOptions/siteCollections``.
    let webRoot: String
    /// The other site collections (`/sites/NAME`), by lower-cased name; each a core of its own whose REST requests
    /// pass the root core's gates first (`Site/SiteCollections.swift`). Empty on those cores themselves.
    let siteCollections: [String: SimulatorCore]

    init(options: SimulatorOptions) {
        self.options = options
        webRoot = ""
        tenantId = stableGUID(options.seed, "tenant")
        webId = stableGUID(options.seed, "web")
        siteId = stableGUID(options.seed, "site")
        siteCollections = Dictionary(
            options.siteCollections.map { ($0.lowercased(), SimulatorCore(siteCollection: $0, of: options)) },
            uniquingKeysWith: { first, _ in first })
        let content = SiteContent.build(
            seed: options.seed, bigItems: options.items, userIds: options.users.indices.map { 10 + $0 })
        state.withLock {
            $0.lists = content.lists
            $0.files = content.files
        }
        if options.hugeFileMebibytes > 0, let documents = content.lists.first(where: { $0.url == "/Shared Documents" })
        {
            var made: [SPFile] = []
            SiteContent.addFile(
                to: documents, name: "huge.bin",
                content: .generated(length: options.hugeFileMebibytes << 20, seed: options.seed ^ 0x4855_4745),
                seed: options.seed, author: 10, files: &made)
            state.withLock { $0.files += made }
        }
        if options.exportFiles > 0 {
            let export = SiteContent.exportLibrary(seed: options.seed, count: options.exportFiles, author: 10)
            state.withLock {
                $0.lists.append(export.list)
                $0.files += export.files
                $0.createdFolders += export.folders.map { ($0, SiteContent.baseEpoch) }
            }
        }
    }

    /// The core of the site collection `/sites/NAME`: its own web, lists and files, the root's users and tenant.
    private init(siteCollection name: String, of options: SimulatorOptions) {
        self.options = options
        webRoot = "/sites/" + name
        tenantId = stableGUID(options.seed, "tenant")
        webId = stableGUID(options.seed, "web" + webRoot)
        siteId = stableGUID(options.seed, "site" + webRoot)
        siteCollections = [:]
        let content = SiteContent.siteCollection(
            name: name, root: webRoot, seed: options.seed, userIds: options.users.indices.map { 10 + $0 })
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
        for core in siteCollections.values {
            core.configure(
                siteURL: siteURL + core.webRoot, identityProviderURL: identityProviderURL, federationURL: federationURL)
        }
    }

    /// The server-relative URL of the web's root folder: `/`, or the site collection's path.
    var webRootFolder: String { webRoot.isEmpty ? "/" : webRoot }

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
        guard let index = userIndex(login: login), users[index].hasPassword, users[index].password == password else {
            return nil
        }
        return index
    }

    func spUserId(_ index: Int) -> Int { 10 + index }

    // MARK: Dispatch

    func handle(_ request: HTTPServerRequest, host: SimulatedHost) -> HTTPServerResponse {
        countInFlight()
        defer { inFlight.wrappingSubtract(1, ordering: .relaxed) }
        let delay =
            options.latencyMilliseconds + options.faults.latencyMilliseconds + addedLatency.load(ordering: .relaxed)
        if delay > 0 { usleep(UInt32(min(delay, 60000)) * 1000) }
        var response: HTTPServerResponse
        switch host {
        case .site:
            let budget = budgetGate(request)
            response = budget.throttled ?? handleSharePoint(request)
            response.headers += budget.headers
        case .identityProvider: response = handleIdentityProvider(request)
        case .federation: response = handleFederation(request)
        }
        response = applyBodyFaults(response, path: request.path)
        record(request, status: response.status)
        return response
    }
}
