import CommandLineKit
import Foundation
import LocalFiles
import Mirror
import Presentation
import SharePoint
import Synchronization

/// What to download: a file (a path or browser address, see ``SiteAddressing``), or items of a library whose files
/// are looked up.
enum DownloadTarget: Equatable {
    case file(String)
    case items(list: String, ids: [Int])

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

/// The server-relative URLs of the files to download, in order, and the word each was given as. Items are
/// resolved to file URLs first (cheap), so the names and the order are known. A file word is resolved when it is
/// downloaded (a library title in its first segment only costs a request if needed).
func resolveDownloads(_ targets: [DownloadTarget], site: SharePointSite) async throws
    -> (urls: [String], words: [String: String])
{
    var words: [String] = []
    var urls: [String] = []
    let addressing = SiteAddressing(siteURL: site.siteURL)
    for target in targets {
        switch target {
        case .file(let word):
            words.append(word)
            urls.append(try addressing.path(word, container: false).path)
        case .items(let list, let ids):
            try await site.withList(named: list) { path in
                for id in ids {
                    let item = try await site.item(in: path, id: id, query: ODataQuery(select: ["Id", "FileRef"]))
                    guard let fileRef = fileURL(of: item) else {
                        throw SharePointError(
                            kind: .fileNotFound, status: 404,
                            message: "item \(id) of '\(list)' has no file (is '\(list)' a library?)")
                    }
                    words.append(fileRef)
                    urls.append(fileRef)
                }
            }
        }
    }
    var wordFor: [String: String] = [:]
    for (word, url) in zip(words, urls) where wordFor[url] == nil { wordFor[url] = word }
    return (urls, wordFor)
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
        totals: transfers, enabled: output.progressEnabled)
    let fetch: @Sendable (Int) async -> Result<(String, Int64), SharePointError> = { index in
        let url = urls[index]
        let destination = (directory as NSString).appendingPathComponent(URL(fileURLWithPath: url).lastPathComponent)
        do {
            return .success(
                try await withPath(words[url] ?? url, container: false, site: site) { path in
                    let size = try await site.download(serverRelativeURL: path, to: destination) { progress in
                        transfers.update(index, progress)
                    }
                    return (path, size)
                })
        } catch let error as SharePointError {
            return .failure(error)
        } catch {
            return .failure(SharePointError(localFile: "could not download \(url)", detail: "\(error)"))
        }
    }
    var outcomes = [Result<(String, Int64), SharePointError>?](repeating: nil, count: urls.count)
    await forEachConcurrently(urls.count, parallel: parallel, fetch) { index, outcome in outcomes[index] = outcome }
    bar.finish()
    if urls.count == 1, case .failure(let error) = outcomes[0] { throw error }
    var records: [Record] = []
    var failures: [(String, SharePointError)] = []
    for (url, outcome) in zip(urls, outcomes) {
        let name = URL(fileURLWithPath: url).lastPathComponent
        switch outcome {
        case .success(let (path, size)):
            records.append(
                Record([
                    Presentation.Field("name", .string(name)), Presentation.Field("size", .int(Int(size))),
                    Presentation.Field("path", .string((directory as NSString).appendingPathComponent(name))),
                    Presentation.Field("serverRelativeUrl", .string(path)),
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
        case nil:
            break
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

/// A progress bar on standard error (terminal only), redrawn by a task ten times a second.
final class TransferBar: Sendable {
    private let task: Task<Void, Never>?
    private let box: ProgressReporterBox
    private let totals: TransferTotals
    private let started = ContinuousClock.now

    init(label: String, totals: TransferTotals, enabled: Bool) {
        self.totals = totals
        let box = ProgressReporterBox(
            ProgressReporter(
                sink: FileDescriptorSink.standardError(), bar: ProgressBar(label: label), isEnabled: enabled))
        self.box = box
        guard enabled else {
            task = nil
            return
        }
        let reporterRef = box
        let startedAt = started
        task = Task {
            while !Task.isCancelled {
                let (done, total) = totals.sum
                reporterRef.lock.withLock { _ in
                    reporterRef.reporter.update(
                        done: done, total: total, elapsedSeconds: (ContinuousClock.now - startedAt) / .seconds(1))
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    func finish() {
        task?.cancel()
        let (done, total) = totals.sum
        box.lock.withLock { _ in
            box.reporter.finish(done: done, total: total, elapsedSeconds: (ContinuousClock.now - started) / .seconds(1))
        }
    }
}

/// A `ProgressReporter` (not thread-safe) used only under its lock.
final class ProgressReporterBox: @unchecked Sendable {
    let reporter: ProgressReporter
    let lock = Mutex(())

    init(_ reporter: ProgressReporter) { self.reporter = reporter }
}

/// The server-relative file URL of a library item (`FileRef`; some servers name it `FileRefId` like a lookup).
func fileURL(of item: ListItem) -> String? {
    let value = item["FileRef"]?.stringValue ?? item["FileRefId"]?.stringValue
    return value?.isEmpty == false ? value : nil
}
