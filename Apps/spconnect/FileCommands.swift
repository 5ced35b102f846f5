import Foundation
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

/// `spconnect download`: files to a local folder, several at a time.
let downloadCommand = Command(
    name: "download",
    summary: "Download files (by library item or server-relative URL) into a folder, streamed to disk.",
    synopsis: "(LIST ID | SERVER-RELATIVE-URL)... [--to DIR] [--parallel N]",
    options: [
        .value("to", "DIR", "the folder to write into (default: the current folder)"),
        .value("parallel", "N", "files downloaded at the same time (default 4)"),
    ] + SiteContext.options,
    examples: [
        "spconnect download Documents 12 --to ~/Downloads",
        "spconnect download '/sites/team/Shared Documents/report.pdf' '/sites/team/Shared Documents/data.xlsx' --parallel 2",
    ]
) { arguments in
    try await withSiteErrors("download") {
        let targets = try DownloadTarget.parse(arguments.positionals)
        let parallel = try arguments.integer("parallel", in: 1...32) ?? 4
        let directory = arguments.value("to") ?? FileManager.default.currentDirectoryPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError(description: "--to \(directory): no such folder")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        // Items are resolved to file URLs first (cheap), so the names and the order are known. A file word is
        // resolved when it is downloaded (a library title in its first segment only costs a request if needed).
        var words: [String] = []
        var urls: [String] = []
        let addressing = SiteAddressing(siteURL: site.siteURL)
        for target in targets {
            switch target {
            case .file(let word):
                words.append(word)
                urls.append(try addressing.path(word, container: false).path)
            case .items(let list, let ids):
                try await withList(list, site: site) { path in
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
        urls = try distinctDestinations(urls, in: directory)
        let transfers = TransferTotals(count: urls.count)
        let bar = TransferBar(
            label: urls.count == 1 ? URL(fileURLWithPath: urls[0]).lastPathComponent : "\(urls.count) files",
            totals: transfers, enabled: output.progressEnabled)
        let results = try await withThrowingTaskGroup(of: (Int, String, Int64).self) { group in
            var done = urls.map { ($0, Int64(0)) }
            var next = 0
            func start(_ index: Int) {
                let url = urls[index]
                let word = wordFor[url] ?? url
                let name = URL(fileURLWithPath: url).lastPathComponent
                let destination = (directory as NSString).appendingPathComponent(name)
                group.addTask {
                    try await withPath(word, container: false, site: site) { path in
                        let size = try await site.download(serverRelativeURL: path, to: destination) { progress in
                            transfers.update(index, progress)
                        }
                        return (index, path, size)
                    }
                }
            }
            while next < min(parallel, urls.count) {
                start(next)
                next += 1
            }
            while let (index, url, size) = try await group.next() {
                done[index] = (url, size)
                if next < urls.count {
                    start(next)
                    next += 1
                }
            }
            return done
        }
        bar.finish()
        let records = results.map { url, size in
            let name = URL(fileURLWithPath: url).lastPathComponent
            return Record([
                Presentation.Field("name", .string(name)), Presentation.Field("size", .int(Int(size))),
                Presentation.Field("path", .string((directory as NSString).appendingPathComponent(name))),
                Presentation.Field("serverRelativeUrl", .string(url)),
            ])
        }
        output.render(
            RecordSet(
                columns: [
                    Column("name", title: "Name"), Column("size", title: "Size"), Column("path", title: "Saved to"),
                    Column("serverRelativeUrl", title: "Server-relative URL"),
                ], records: records))
        return .ok
    }
}

/// `spconnect upload FILE --to FOLDER`.
let uploadCommand = Command(
    name: "upload", summary: "Upload a local file into a library folder (large files in chunks).",
    synopsis: "FILE --to FOLDER [--as NAME] [--overwrite]",
    options: [
        .value("to", "FOLDER", "the library folder: a title ('Documents'), a path or a browser address"),
        .value("as", "NAME", "the file name in SharePoint (default: the local name)"),
        .flag("overwrite", "replace a file of the same name (otherwise the upload is refused)"),
    ] + SiteContext.options,
    examples: [
        "spconnect upload report.pdf --to 'Shared Documents/Reports'",
        "spconnect upload draft.docx --to 'Shared Documents' --as final.docx --overwrite",
    ]
) { arguments in
    try await withSiteErrors("upload") {
        let file = try positionals(arguments, "FILE")[0]
        guard let folder = arguments.value("to") else { throw UsageError(description: "--to FOLDER is required") }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw UsageError(description: "cannot read the local file \(file)")
        }
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let totals = TransferTotals(count: 1)
        let bar = TransferBar(
            label: URL(fileURLWithPath: file).lastPathComponent, totals: totals, enabled: output.progressEnabled)
        let name = arguments.value("as") ?? URL(fileURLWithPath: file).lastPathComponent
        let uploaded: SharePoint.File
        do {
            uploaded = try await withPath(folder, container: true, site: site) { path in
                try await site.upload(
                    file: file, toFolder: path, as: name, overwrite: arguments.has("overwrite")
                ) { progress in totals.update(0, progress) }
            }
        } catch let error as SharePointError where error.kind == .alreadyExists {
            bar.finish()
            printError(
                "spconnect upload: A file named '\(name)' already exists in \(folder); add --overwrite to replace it, "
                    + "or --as NAME to upload it under another name." + error.details)
            return .conflict
        }
        bar.finish()
        output.renderOne(SharePointRecords.record(file: uploaded), columns: SharePointRecords.entryColumns)
        return .ok
    }
}

/// Byte counts of several transfers, updated from Transport's threads.
final class TransferTotals: Sendable {
    private let state: Mutex<[FileProgress?]>

    init(count: Int) { state = Mutex([FileProgress?](repeating: nil, count: count)) }

    func update(_ index: Int, _ progress: FileProgress) {
        state.withLock { $0[index] = progress }
    }

    /// Bytes done, and the total when every transfer has reported a known size.
    var sum: (done: Int64, total: Int64?) {
        state.withLock { all in
            let done = all.reduce(Int64(0)) { $0 + ($1?.completedBytes ?? 0) }
            var total: Int64? = 0
            for progress in all {
                if let size = progress?.totalBytes, let sum = total { total = sum + size } else { total = nil }
            }
            return (done, total)
        }
    }
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
