// Fuzz target: what a change log gives back (Modules/SharePoint/Changes.swift) and the change tokens spconnect keeps
// (Modules/Mirror/Remote/ChangeTokenFile.swift), the answers `changes`, `items --since-token` and
// `download -r --incremental` trust from one night to the next.
//
// The input is a GetChanges answer. Oracles:
// - every change that decodes has a token; its kind's name is never empty; a change that removes is a delete or a
//   move away;
// - a text that reads as a change token (`ChangeTokenFile.isChangeToken`) has a scope id, lower-cased, that is a
//   UUID, and its position in the log (`changeNumber`) is its fifth part; a text that does not read as one is never
//   written to a token file (`ChangeTokenFile.write` refuses it before touching the file).
import Foundation
import FuzzSupport

@testable import Mirror
@testable import SharePoint

func fuzzChanges(_ bytes: [UInt8]) {
    guard let document = try? ODataDocument(data: Data(bytes)), let (entities, _) = try? document.collection()
    else {
        checkToken(Fuzz.text(bytes.prefix(200)))
        return
    }
    for entity in entities {
        guard let change = try? Change(entity: entity) else { continue }
        Fuzz.check(!change.typeName.isEmpty, "a change kind without a name")
        Fuzz.check(!change.removes || [3, 5].contains(change.changeType), "a removal of kind \(change.changeType)")
        checkToken(change.token)
    }
}

func checkToken(_ token: String) {
    let parts = token.split(separator: ";", omittingEmptySubsequences: false)
    if ChangeTokenFile.isChangeToken(token) {
        let scope = ChangeTokenFile.scopeID(of: token)
        Fuzz.check(scope == scope?.lowercased() && scope.flatMap(UUID.init(uuidString:)) != nil, "scope of \(token)")
        Fuzz.check(SharePointSite.changeNumber(token) == Int(parts[4]), "position of \(token)")
    } else {
        let file = ChangeTokenFile(path: scratchFolder + "/token")
        do {
            try file.write(token)
            Fuzz.check(false, "a text that is no change token was written: \(token)")
        } catch {
            Fuzz.check(!FileManager.default.fileExists(atPath: file.path), "a refused token left a file")
        }
    }
}

/// Where a refused token would have been written (made once).
let scratchFolder: String = {
    let folder = NSTemporaryDirectory() + "fuzz-changes-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

/// A GetChanges page as SharePoint Online sends it, a token alone, and a broken token.
let seeds = [
    #"{"value":[{"ChangeType":1,"ItemId":3,"ListId":"6f1e0b3a-0000-4000-8000-000000000001","#
        + #""ChangeToken":{"StringValue":"1;3;6f1e0b3a-0000-4000-8000-000000000001;638700000000000000;42"},"#
        + #""Time":"2026-12-01T10:00:00Z"},{"ChangeType":5,"ChangeToken":{"StringValue":"x"}}]}"#,
    "1;3;6F1E0B3A-0000-4000-8000-000000000001;638700000000000000;43",
    "1;3;not-a-guid;1;2",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzChanges, seeds: seeds) }
}
