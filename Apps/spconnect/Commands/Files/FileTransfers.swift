import CommandLineKit
import FileOperations
import Foundation
import LocalFiles
import Mirror
import Presentation
import SharePoint
import Synchronization

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
    var failures: [(String, SharePointError)] = []
    for (url, outcome) in zip(urls, outcomes) {
        if case .failure(let error) = outcome { failures.append((url, error)) }
    }
    output.render(
        RecordSet(
            columns: FileDownloads.columns,
            records: zip(urls, outcomes).map { FileDownloads.record(url: $0, outcome: $1, directory: directory) }))
    for (url, error) in failures { printError("spconnect download: \(url): \(error.description)") }
    if let (_, first) = failures.first {
        printError(
            "spconnect download: \(urls.count - failures.count) of \(urls.count) files downloaded, "
                + "\(failures.count) failed.")
        return exitCode(for: first)
    }
    return .ok
}
