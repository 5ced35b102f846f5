// Fuzz target: the download ledger (`DIR/.spconnect-download.json`, Modules/Mirror/Ledger/DownloadLedgerFile.swift), the
// file `download -r` reads to know which local files it wrote.
//
// Oracles: a file that reads renders to a file that reads back to the same entries, and renders the same again
// (keys sorted); a file that does not read is no ledger at all (the app then counts no file as its own).
import Foundation
import FuzzSupport
import Mirror

func fuzzLedger(_ bytes: [UInt8]) {
    if let (files, pending) = DownloadLedgerFile.parseWithPending(Data(bytes)), !pending.isEmpty {
        // The write-ahead entries survive a render and a parse too.
        let rendered = try? DownloadLedgerFile.render(files, pending: pending)
        let again = rendered.flatMap { DownloadLedgerFile.parseWithPending($0) }
        Fuzz.check(again?.files == files && again?.pending == pending, "pending entries read back differently")
    }
    guard let entries = DownloadLedgerFile.parse(Data(bytes)) else { return }
    do {
        let rendered = try DownloadLedgerFile.render(entries)
        guard let again = DownloadLedgerFile.parse(rendered) else {
            Fuzz.check(false, "a rendered ledger does not read:\n\(Fuzz.text(rendered))")
            return
        }
        Fuzz.check(again == entries, "a rendered ledger reads back differently:\n\(Fuzz.text(rendered))")
        let twice = try DownloadLedgerFile.render(again)
        Fuzz.check(twice == rendered, "a ledger renders differently twice")
    } catch {
        Fuzz.check(false, "a ledger that reads cannot be rendered: \(error)")
    }
}

/// A ledger as `download -r` writes it (with and without content hashes), an empty one, and one with a later
/// version and odd paths.
let seeds = [
    #"{"files":{"a.txt":{"modified":1767225600,"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","#
        + #""size":0}},"version":1}"#,
    #"{"files":{"Reports/2026/q1.xlsx":{"modified":1767225600,"size":48213},"a.txt":{"modified":0,"size":0}},"#
        + #""version":1}"#,
    #"{"files":{},"version":1}"#,
    #"{"files":{"a.txt":{"modified":1,"size":2}},"pending":{"a.txt":{"etag":"\"{A},2\"","modified":3,"size":4}},"#
        + #""version":1}"#,
    #"{"version":2,"files":{"../x":{"size":-1,"modified":-9223372036854775808},"é\u0000":{"size":1,"modified":1}}}"#,
]

@main enum Main {
    static func main() { Fuzz.main(fuzzLedger, seeds: seeds) }
}
