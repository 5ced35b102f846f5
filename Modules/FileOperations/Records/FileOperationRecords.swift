import Foundation
public import Mirror
public import Presentation
public import SharePoint

// The rows the file operations' outcomes are shown as, beside the outcomes themselves: every app shows a removal,
// a download, an attachment or a move the same way in every output format.

extension RemovalOutcome {
    /// Columns of ``record``.
    public static let columns = [
        Column("path", title: "Path"), Column("type", title: "Type"),
        Column("serverRelativeUrl", title: "Server-relative URL"), Column("result", title: "Result"),
        Column("recycleBinId", title: "Recycle bin id"),
    ]

    /// The path as given, what it named, the result, and the recycle bin's id of what went there.
    public var record: Record {
        var binId: String?
        if case .recycled(_, let id) = result { binId = id }
        return Record([
            Field("path", .string(word)), Field("type", entry.map { .string($0.kind) } ?? .null),
            Field("serverRelativeUrl", entry.map { .string($0.serverRelativeUrl) } ?? .null),
            Field("result", .string(text)), Field("recycleBinId", binId.map(Cell.string) ?? .null),
        ])
    }
}

extension FileDownloads {
    /// Columns of ``record(url:outcome:directory:)``.
    public static let columns = [
        Column("name", title: "Name"), Column("size", title: "Size"), Column("path", title: "Saved to"),
        Column("serverRelativeUrl", title: "Server-relative URL"), Column("result", title: "Result"),
    ]

    /// One file asked for (`url`) and what became of it in `directory`: `downloaded`, or `failed (REASON)`.
    public static func record(url: String, outcome: Result<DownloadedFile, SharePointError>, directory: String)
        -> Record
    {
        let name = URL(fileURLWithPath: url).lastPathComponent
        switch outcome {
        case .success(let file):
            return Record([
                Field("name", .string(name)), Field("size", .int(Int(file.size))),
                Field("path", .string((directory as NSString).appendingPathComponent(name))),
                Field("serverRelativeUrl", .string(file.serverRelativeUrl)), Field("result", .string("downloaded")),
            ])
        case .failure(let error):
            return Record([
                Field("name", .string(name)), Field("size", .null), Field("path", .null),
                Field("serverRelativeUrl", .string(url)), Field("result", .string("failed (\(error.briefReason))")),
            ])
        }
    }
}

extension AttachmentOutcome {
    /// Columns of ``record``.
    public static let columns = [
        Column("name", title: "Name"), Column("size", title: "Size"), Column("path", title: "Saved to"),
        Column("result", title: "Result"),
    ]

    /// The attachment, its size and where it was saved, and `downloaded`, `refused (exists)`, `refused (name)` or
    /// `failed (REASON)`.
    public var record: Record {
        var size: Cell = .null
        var saved: Cell = .null
        let text: String
        switch result {
        case .downloaded(let bytes, let path):
            size = Int(exactly: bytes).map(Cell.int) ?? .null
            saved = .string(path)
            text = "downloaded"
        case .exists: text = "refused (exists)"
        case .unsafeName: text = "refused (name)"
        case .failed(let error): text = "failed (\(error.briefReason))"
        }
        return Record([
            Field("name", .string(name)), Field("size", size), Field("path", saved), Field("result", .string(text)),
        ])
    }
}

extension Relocation {
    /// Columns of ``record(result:)``.
    public static let columns = [
        Column("type", title: "Type"), Column("source", title: "Source"),
        Column("destination", title: "Destination"), Column("result", title: "Result"),
    ]

    /// What is moved or copied, where to, and `result` (`moved`, `would copy, replacing`, `refused (exists)`, …).
    public func record(result: String) -> Record {
        Record([
            Field("type", .string(source.kind)), Field("source", .string(source.serverRelativeUrl)),
            Field("destination", .string(target)), Field("result", .string(result)),
        ])
    }
}

extension TreeResult {
    /// Columns of ``record``, the same for both directions of a tree transfer.
    public static let columns = [
        Column("result", title: "Result"), Column("size", title: "Size"), Column("path", title: "Local path"),
        Column("serverRelativeUrl", title: "Server-relative URL"),
    ]

    /// One file of a tree transfer: what happened to it, its size, the local path and the server-relative URL.
    public var record: Record {
        Record([
            Field("result", .string(resultText)), Field("size", size.map { .int(Int($0)) } ?? .null),
            Field("path", .string(localPath)), Field("serverRelativeUrl", .string(serverRelativeUrl)),
        ])
    }
}
