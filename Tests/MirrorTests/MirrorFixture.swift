import Foundation
import LocalFiles
import Mirror
import SPSim
import SharePoint
import TestSupport
import Testing
import Transport

/// An in-process spsim (HTTP Basic as alice, so the site takes writes), a library folder the test fills through the
/// REST model, and a local folder: the mirror engine runs between them with no spconnect process.
struct MirrorFixture {
    let sim: Simulator
    let site: SharePointSite
    /// The library folder mirrored (`/Shared Documents/Mirror-…`).
    let remote: String
    /// A scratch folder for the files the test uploads.
    let scratch: String
    /// The local side of the mirror (not made yet).
    let local: String

    init() async throws {
        sim = try Simulator(SimulatorOptions(mode: .basic))
        site = SharePointSite(
            client: try HTTPClient(), siteURL: sim.siteURL + "/",
            authentication: .basic(user: aliceEmail, password: Secret(alicePassword)))
        let name = "Mirror-\(UInt32.random(in: 0...UInt32.max))"
        remote = try await site.createFolder(named: name, in: "/Shared Documents").serverRelativeUrl
        scratch = try temporaryDirectory("mirror-scratch")
        local = try temporaryDirectory("mirror-local") + "/copy"
    }

    func stop() async {
        await sim.stop()
        try? FileManager.default.removeItem(atPath: scratch)
        try? FileManager.default.removeItem(atPath: (local as NSString).deletingLastPathComponent)
    }

    /// Puts `text` at `relativePath` below the mirrored folder on the server (folders made as needed).
    func put(_ relativePath: String, _ text: String) async throws {
        var folder = remote
        let parts = relativePath.split(separator: "/").map(String.init)
        for part in parts.dropLast() {
            let below = folder + "/" + part
            if (try? await site.folder(serverRelativeURL: below)) == nil {
                _ = try await site.createFolder(named: part, in: folder)
            }
            folder = below
        }
        let file = scratch + "/" + parts.last!
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try await site.upload(file: file, toFolder: folder, overwrite: true)
    }

    /// The local copy's text at `relativePath`, nil when there is none.
    func localText(_ relativePath: String) -> String? {
        try? String(contentsOfFile: local + "/" + relativePath, encoding: .utf8)
    }

    /// Options that wait up to 5 s for the folder's lock: other tests of this process start child processes all the
    /// time, and a child between its clone and its exec briefly shares every descriptor, the lock file's too.
    static let options = TreeOptions(wait: 5)

    /// One download run of the mirrored folder into ``local``: its end and every event, in order.
    func download(_ options: TreeOptions = MirrorFixture.options, incremental: IncrementalDownload? = nil) async throws
        -> (end: TreeRunEnd, events: EventLog)
    {
        let log = EventLog()
        let end = try await TreeTransfer(site: site, options: options).download(
            RemoteFolder(path: remote), to: local, incremental: incremental, report: log.record)
        return (end, log)
    }
}

/// What a run reported, for assertions.
final class EventLog {
    private(set) var events: [TreeEvent] = []

    var record: (TreeEvent) -> Void { { [self] in self.events.append($0) } }

    /// Result words by local path below `top` (`a.txt` → `downloaded`).
    func results(below top: String) -> [String: String] {
        var words: [String: String] = [:]
        for case .result(let result) in events {
            words[String(result.localPath.dropFirst(top.count + 1))] = result.resultText
        }
        return words
    }

    var transfersStarted: Int { events.filter { if case .transfersStarted = $0 { true } else { false } }.count }
}

extension TreeRunEnd {
    /// The summary of a run that finished; a test failure when another run held the lock.
    func summary(sourceLocation: SourceLocation = #_sourceLocation) throws -> TreeRunSummary {
        guard case .finished(let summary) = self else {
            Issue.record("the run did not finish: \(self)", sourceLocation: sourceLocation)
            throw EndedLocked()
        }
        return summary
    }

    struct EndedLocked: Error {}
}
