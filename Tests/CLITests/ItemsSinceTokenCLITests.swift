import Foundation
import SPSim
import TestSupport
import Testing

/// `items LIST --since-token FILE` end to end against the simulator (docs/cli.md "Incremental runs"): the first run
/// lists everything and saves the token, the next only the added and changed items (by id) with the deleted ids on
/// standard error, a token older than the change log falls back to a full run, a failed run keeps the old token,
/// and a list past the 5,000-item threshold is read in a few requests. Serialized: a simulator and several
/// spconnect processes per case.
@Suite(.serialized) struct ItemsSinceTokenCLITests {
    static func ids(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["ID"] ?? object?["Id"]) as? Int
        }
    }

    static func token(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func theFirstRunIsFullAndTheNextOnlyTheChangesWithTheDeletedIds() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("since")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenPath = folder + "/tasks.token"
        let arguments = ["items", "Tasks", "--since-token", tokenPath, "--select", "Id,Title", "-o", "ndjson"]
        let first = try await fixture.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.ids(first.stdout) == Array(1...20))
        #expect(first.stderr.contains("no token in \(tokenPath) yet"), "\(first.stderr)")
        let saved = Self.token(tokenPath)
        #expect(saved.hasPrefix("1;3;"), "\(saved)")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        #expect(try await fixture.run(["update", "Tasks", "5", "Title=Printer fixed"]).status == 0)
        #expect(try await fixture.run(["delete", "Tasks", "7"]).status == 0)
        #expect(try await fixture.run(["add", "Tasks", "Title=Order toner"]).status == 0)
        #expect(try await fixture.run(["update", "Tasks", "2", "Title=Budget"]).status == 0)
        #expect(try await fixture.run(["update", "Tasks", "2", "Title=Budget reviewed"]).status == 0)
        fixture.sim.clearRequestLog()
        let second = try await fixture.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.ids(second.stdout) == [2, 5, 21])
        #expect(second.stdout.contains("\"Title\":\"Budget reviewed\""), "\(second.stdout)")
        // Under -o ndjson standard error's messages are JSON notices (docs/cli.md "Errors as JSON").
        #expect(second.stderr.contains("{\"notice\":\"deleted: 7\"}"), "\(second.stderr)")
        #expect(second.stderr.contains("3 added or changed, 1 deleted"), "\(second.stderr)")
        let itemReads = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        #expect(itemReads.count == 1, "\(itemReads.map(\.query))")
        #expect(Self.token(tokenPath) != saved)

        let third = try await fixture.run(arguments)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(Self.ids(third.stdout).isEmpty, "\(third.stdout)")
        #expect(!third.stderr.contains("deleted:"), "\(third.stderr)")
    }

    @Test func aTooOldTokenFallsBackToAFullRunAndAFailedRunKeepsTheToken() async throws {
        let fixture = try await CLIFixture()
        let folder = try temporaryDirectory("since-old")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenPath = folder + "/tasks.token"
        let arguments = ["items", "Tasks", "--since-token", tokenPath, "-o", "ndjson"]
        #expect(try await fixture.run(arguments).status == 0)
        #expect(try await fixture.run(["update", "Tasks", "9", "Title=Supplier called"]).status == 0)
        let saved = Self.token(tokenPath)

        // A run that fails (an unknown column) leaves the token as it was: the change is listed next time.
        let failed = try await fixture.run(arguments + ["--select", "Id,Nope"])
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(Self.token(tokenPath) == saved)
        let again = try await fixture.run(arguments)
        #expect(Self.ids(again.stdout) == [9], "\(again.stderr)")

        #expect(try await fixture.run(["update", "Tasks", "10", "Title=Archived"]).status == 0)
        fixture.sim.truncateChangeLog()
        let old = try await fixture.run(arguments)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("older than the change log of list 'Tasks' keeps"), "\(old.stderr)")
        #expect(Self.ids(old.stdout) == Array(1...20))
        let after = try await fixture.run(arguments)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(Self.ids(after.stdout).isEmpty, "\(after.stdout)")
    }

    @Test func aListPastTheThresholdIsReadInAFewRequests() async throws {
        let fixture = try await CLIFixture(items: 12_000)
        let folder = try temporaryDirectory("since-big")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokenPath = folder + "/big.token"
        // The first run's token, without reading 12,000 items twice: `changes` saves the current one.
        #expect(try await fixture.run(["changes", "Big", "--since-token", tokenPath]).status == 0)
        let changed = [3, 4_999, 5_001, 11_999] + Array(100...150)
        for id in changed {
            #expect(try await fixture.run(["update", "Big", "\(id)", "Title=Changed \(id)"]).status == 0)
        }
        #expect(try await fixture.run(["delete", "Big", "8000"]).status == 0)
        fixture.sim.clearRequestLog()
        let run = try await fixture.run([
            "items", "Big", "--since-token", tokenPath, "--select", "Id,Title", "-o", "ndjson",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.ids(run.stdout) == changed.sorted())
        #expect(run.stderr.contains("{\"notice\":\"deleted: 8000\"}"), "\(run.stderr)")
        let reads = fixture.sim.requestLog().filter { $0.path.lowercased().hasSuffix("/items") }
        // 55 ids: two requests of at most 50, each an `ID` range (no scan of 12,000 items, no threshold).
        #expect(reads.count == 2, "\(reads.count)")
        #expect(
            reads.allSatisfy { $0.query.contains("ID%20ge%20") || $0.query.contains("ID+ge+") }, "\(reads.map(\.query))"
        )
    }
}
