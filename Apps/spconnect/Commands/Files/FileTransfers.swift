import CommandLineKit
import FileOperations
import Foundation
import LocalFiles
import Mirror
import Presentation
import SharePoint
import Synchronization

extension DownloadTarget {
    /// `LIST ID...` groups and file words, in order: a word followed by whole numbers is a list and those are its
    /// item ids; any other word names a file.
    static func parse(_ words: [String]) throws(UsageError) -> [DownloadTarget] {
        var targets: [DownloadTarget] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            var ids: [Int] = []
            while index < words.count, let id = Int(words[index]) {
                guard id > 0 else { throw UsageError(description: "'\(id)' is not an item id (a whole number from 1)") }
                ids.append(id)
                index += 1
            }
            if ids.isEmpty, Int(word) != nil {
                throw UsageError(description: "'\(word)' looks like an item id: give the list first (LIST ID...)")
            }
            targets.append(ids.isEmpty ? .file(word) : .items(list: word, ids: ids))
        }
        guard !targets.isEmpty else {
            throw UsageError(description: "nothing to download: give LIST ID... or a file's path or address")
        }
        return targets
    }
}

/// `urls` without repeats, checked before anything is transferred: two different files that would be saved under
/// one name in `directory` are a usage error naming both (one would silently replace the other).
func distinctDestinations(_ urls: [String], in directory: String) throws(UsageError) -> [String] {
    var seen: Set<String> = []
    var byName: [String: String] = [:]
    var distinct: [String] = []
    for url in urls where seen.insert(url).inserted {
        let name = URL(fileURLWithPath: url).lastPathComponent
        if let earlier = byName[name] {
            throw UsageError(
                description: "\(earlier) and \(url) would both be saved as '\(name)' in \(directory); nothing was "
                    + "downloaded. Download them in separate runs with different --to folders")
        }
        byName[name] = url
        distinct.append(url)
    }
    return distinct
}

/// The flags of a tree transfer (`-r`).
func treeOptions(_ arguments: ParsedArguments, parallel: Int) throws(UsageError) -> TreeOptions {
    TreeOptions(
        parallel: parallel, overwrite: arguments.has(.overwrite), delete: arguments.has(.delete),
        dryRun: arguments.has(.dryRun), wait: try lockWait(arguments))
}

/// Refuses the flags of a tree transfer without `-r`: a `--dry-run` that did not hold back would write.
func refuseTreeFlags(_ arguments: ParsedArguments, _ keys: [OptionKey], command: String) throws(UsageError) {
    for key in keys where arguments.has(key) || arguments.value(key) != nil {
        throw UsageError(description: "--\(key.name) goes with -r (\(command) -r …); it does nothing for single files")
    }
}

/// `--to DIR` made when missing (with its parents); something else in its place is a usage error.
func makeLocalFolder(_ directory: String) throws(UsageError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else { throw UsageError(description: "--to \(directory): not a folder") }
        return
    }
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        throw UsageError(description: "--to \(directory): cannot make that folder (\(error.localizedDescription))")
    }
}

/// Downloads `urls` into `directory`, `parallel` at a time. One file: its failure is the command's error. Several:
/// one row per file in the order given, arrived or not (its `result`: `downloaded`, `failed (not found)`, …), each
/// failure also on standard error, and the exit code is the first failure's.
func downloadFiles(
    _ urls: [String], words: [String: String], to directory: String, parallel: Int, site: SharePointSite,
    output: Output
) async throws -> ExitCode {
    let transfers = TransferTotals(count: urls.count)
    let bar = TransferBar(
        label: urls.count == 1 ? URL(fileURLWithPath: urls[0]).lastPathComponent : "\(urls.count) files",
        totals: { transfers.sum }, enabled: output.progressEnabled, drawingOn: STDERR_FILENO)
    let outcomes = await FileDownloads.download(
        urls, words: words, to: directory, parallel: parallel, site: site, totals: transfers)
    bar.finish()
    if urls.count == 1, case .failure(let error) = outcomes[0] { throw error }
    var records: [Record] = []
    var failures: [(String, SharePointError)] = []
    for (url, outcome) in zip(urls, outcomes) {
        let name = URL(fileURLWithPath: url).lastPathComponent
        switch outcome {
        case .success(let file):
            records.append(
                Record([
                    Presentation.Field("name", .string(name)), Presentation.Field("size", .int(Int(file.size))),
                    Presentation.Field("path", .string((directory as NSString).appendingPathComponent(name))),
                    Presentation.Field("serverRelativeUrl", .string(file.serverRelativeUrl)),
                    Presentation.Field("result", .string("downloaded")),
                ]))
        case .failure(let error):
            failures.append((url, error))
            records.append(
                Record([
                    Presentation.Field("name", .string(name)), Presentation.Field("size", .null),
                    Presentation.Field("path", .null), Presentation.Field("serverRelativeUrl", .string(url)),
                    Presentation.Field(
                        "result", .string("failed (\(error.briefReason))")),
                ]))
        }
    }
    output.render(
        RecordSet(
            columns: [
                Column("name", title: "Name"), Column("size", title: "Size"), Column("path", title: "Saved to"),
                Column("serverRelativeUrl", title: "Server-relative URL"), Column("result", title: "Result"),
            ], records: records))
    for (url, error) in failures { printError("spconnect download: \(url): \(error.description)") }
    if let (_, first) = failures.first {
        printError(
            "spconnect download: \(urls.count - failures.count) of \(urls.count) files downloaded, "
                + "\(failures.count) failed.")
        return exitCode(for: first)
    }
    return .ok
}
