import AuthFlow
import Foundation
import SPSim
import SharePoint
import Transport

/// Where a soak runs: an in-process spsim (Entra sign-in, as SharePoint Online), spconnect's own state folder with a
/// profile signed in once by `spconnect login`, the harness's own signed-in client (the people who change the site
/// every day), and the local folders of the nightly recipe.
final class SoakWorld {
    let sim: Simulator
    let site: SharePointSite
    let spconnect: String
    let work: String
    /// spconnect's `XDG_STATE_HOME` and `HOME`.
    let state: String
    /// The library folder the nightly download mirrors, and the one the upload fills.
    let mirroredFolder = "/Shared Documents/Soak"
    let uploadedFolder = "/Shared Documents/SoakUp"
    /// The list the nightly export reads.
    let list = "Tasks"
    /// The local side: the mirror, the upload's source, the export and the tokens.
    var mirror: String { work + "/mirror" }
    var source: String { work + "/source" }
    var export: String { work + "/Tasks.ndjson" }
    var mirrorToken: String { work + "/mirror.token" }
    var itemsToken: String { work + "/tasks.token" }
    var rcloneCopy: String { work + "/rclone" }

    init(spconnect: String, work: String) async throws {
        var options = SimulatorOptions(mode: .entra)
        options.faults.retryAfterSeconds = 1
        sim = try Simulator(options)
        self.spconnect = spconnect
        self.work = work
        state = work + "/state"
        for folder in [state, work + "/source", work + "/logs"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let client = try HTTPClient()
        let siteURL = sim.siteURL
        let signIn: @Sendable () async throws -> Bool = {
            let outcome = await SignIn(
                client: client,
                configuration: SignInConfiguration(
                    siteURL: siteURL, username: SoakWorld.user, password: Secret(SoakWorld.password),
                    policy: SignInPolicy(allowHTTPLoopback: true))
            ).run()
            if case .signedIn = outcome { return true }
            return false
        }
        guard try await signIn() else { throw SoakFailure("the harness could not sign in to spsim") }
        site = SharePointSite(client: client, siteURL: siteURL + "/", reauthenticate: signIn)
        for folder in [mirroredFolder, uploadedFolder] {
            let parent = (folder as NSString).deletingLastPathComponent
            _ = try await site.createFolder(named: (folder as NSString).lastPathComponent, in: parent)
        }
    }

    static let user = "alice@contoso.test"
    static let password = "Spring2026!"

    /// The environment every spconnect run gets: its own state folder, and the password for renewals.
    var environment: [String: String] {
        [
            "XDG_STATE_HOME": state, "HOME": state, "PATH": "/usr/bin:/bin",
            "SPCONNECT_PASSWORD": SoakWorld.password,
        ]
    }

    func stop() { sim.stop() }
}

/// The harness itself could not go on (not a finding about spconnect).
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
