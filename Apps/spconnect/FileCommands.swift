import Foundation
import Presentation
import SharePoint
import Synchronization

/// A folder or file path from the command line as a server-relative URL: kept when it starts with `/`, else
/// taken as relative to the site (`Shared Documents/a.txt` on `/sites/team` → `/sites/team/Shared Documents/a.txt`).
/// What a browser shows is accepted too: a whole `https://…` address gives its path, and a path written with
/// `%20`-style escapes and no space (`/sites/team/Shared%20Documents`) is decoded once. A name that really
/// contains `%` followed by two hex digits is then written with `%25` (or with a space elsewhere in it).
func serverRelative(_ argument: String, site: SharePointSite) -> String {
    let path = pathAsWritten(argument)
    if path.hasPrefix("/") { return path }
    var base = URL(string: site.siteURL)?.path ?? ""
    while base.hasSuffix("/") { base.removeLast() }
    return base + "/" + path
}

/// The path a command-line word names: a whole `http(s)://` address gives its (decoded) path; a word with
/// `%HH` escapes and no space is decoded once; anything else is taken as written.
func pathAsWritten(_ word: String) -> String {
    let lowered = word.lowercased()
    if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
        return URLComponents(string: word)?.path ?? word
    }
    if !word.contains(" "), word.range(of: "%[0-9A-Fa-f]{2}", options: .regularExpression) != nil,
        let decoded = word.removingPercentEncoding
    {
        return decoded
    }
    return word
}

/// `spconnect ls FOLDER`: the folders and files directly in a folder.
let lsCommand = Command(
    name: "ls", summary: "List the folders and files directly in a library folder.",
    synopsis: "FOLDER [--output FORMAT]   (FOLDER: server-relative, or relative to the site, e.g. 'Shared Documents')",
    options: SiteContext.options,
    examples: [
        "spconnect ls 'Shared Documents'",
        "spconnect ls '/sites/team/Shared Documents/Reports' -o json",
    ]
) { arguments in
    try await withSiteErrors("ls") {
        let folder = try positionals(arguments, "FOLDER")[0]
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments).site
        let path = serverRelative(folder, site: site)
        let folders = try await site.folders(inFolder: path)
        let files = try await site.files(inFolder: path)
        let records =
            folders.sorted { $0.name < $1.name }.map(SharePointRecords.record(folder:))
            + files.sorted { $0.name < $1.name }.map(SharePointRecords.record(file:))
        output.render(RecordSet(columns: SharePointRecords.entryColumns, records: records))
        return .ok
    }
}

/// One thing to download: a file URL, or an item of a library whose file URL is looked up.
enum DownloadTarget {
    case url(String)
    case item(list: String, id: Int)

    /// `LIST ID` pairs and server-relative URLs, in order.
    static func parse(_ words: [String]) throws(UsageError) -> [DownloadTarget] {
        var targets: [DownloadTarget] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            let path = pathAsWritten(word)
            if path.hasPrefix("/") {
                targets.append(.url(path))
                index += 1
                continue
            }
            guard index + 1 < words.count else {
                throw UsageError(
                    description: "'\(word)' needs an item id after it (LIST ID), or give a /server-relative/url")
            }
            targets.append(.item(list: word, id: try itemID(words[index + 1])))
            index += 2
        }
        guard !targets.isEmpty else {
            throw UsageError(description: "nothing to download: give LIST ID or /server-relative/url")
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
        // Resolve items to file URLs first (cheap), so the names and the order are known.
        var urls: [String] = []
        for target in targets {
            switch target {
            case .url(let url): urls.append(url)
            case .item(let list, let id):
                let item = try await site.item(
                    in: listPath(list), id: id, query: ODataQuery(select: ["Id", "FileRef"]))
                guard let fileRef = fileURL(of: item) else {
                    throw SharePointError(
                        kind: .fileNotFound, status: 404,
                        message: "item \(id) of '\(list)' has no file (is '\(list)' a library?)")
                }
                urls.append(fileRef)
            }
        }
        urls = try distinctDestinations(urls, in: directory)
        let transfers = TransferTotals(count: urls.count)
        let bar = TransferBar(
            label: urls.count == 1 ? URL(fileURLWithPath: urls[0]).lastPathComponent : "\(urls.count) files",
            totals: transfers, enabled: output.progressEnabled)
        let results = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
            var sizes = [Int64](repeating: 0, count: urls.count)
            var next = 0
            func start(_ index: Int) {
                let url = urls[index]
                let name = URL(fileURLWithPath: url).lastPathComponent
                let destination = (directory as NSString).appendingPathComponent(name)
                group.addTask {
                    let size = try await site.download(serverRelativeURL: url, to: destination) { progress in
                        transfers.update(index, progress)
                    }
                    return (index, size)
                }
            }
            while next < min(parallel, urls.count) {
                start(next)
                next += 1
            }
            while let (index, size) = try await group.next() {
                sizes[index] = size
                if next < urls.count {
                    start(next)
                    next += 1
                }
            }
            return sizes
        }
        bar.finish()
        let records = urls.indices.map { index in
            Record([
                Presentation.Field("name", .string(URL(fileURLWithPath: urls[index]).lastPathComponent)),
                Presentation.Field("size", .int(Int(results[index]))),
                Presentation.Field(
                    "path",
                    .string(
                        (directory as NSString).appendingPathComponent(
                            URL(fileURLWithPath: urls[index]).lastPathComponent))),
                Presentation.Field("serverRelativeUrl", .string(urls[index])),
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
        .value("to", "FOLDER", "the library folder, server-relative or relative to the site ('Shared Documents')"),
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
        let uploaded = try await site.upload(
            file: file, toFolder: serverRelative(folder, site: site), as: arguments.value("as"),
            overwrite: arguments.has("overwrite")
        ) { progress in totals.update(0, progress) }
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
