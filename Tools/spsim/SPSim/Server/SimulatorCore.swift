import Foundation
import HTTPServer
import Synchronization

/// The shared brain of all servers: the options, and the mutable state under one mutex (handlers run on the servers'
/// per-connection threads).
final class SimulatorCore: Sendable {
    let options: SimulatorOptions
    let state = Mutex(SimulatorState())
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
    let throttling = Mutex<(count: Int, queryText: String?)>((0, nil))
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
        if options.exportFiles > 0 {
            let export = SiteContent.exportLibrary(seed: options.seed, count: options.exportFiles, author: 10)
            state.withLock {
                $0.lists.append(export.list)
                $0.files += export.files
                $0.createdFolders += export.folders.map { ($0, SiteContent.baseEpoch) }
            }
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
        countInFlight()
        defer { inFlight.wrappingSubtract(1, ordering: .relaxed) }
        let delay =
            options.latencyMilliseconds + options.faults.latencyMilliseconds + addedLatency.load(ordering: .relaxed)
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
}
