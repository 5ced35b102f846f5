public import LocalFiles
public import SharePoint

/// What became of one attachment ``AttachmentDownloads/save(_:of:id:into:overwrite:site:)`` was given.
public struct AttachmentOutcome: Sendable {
    /// How it ended.
    public enum Result: Sendable {
        /// Saved: its size in bytes and where.
        case downloaded(bytes: Int64, path: String)
        /// A file of that name was already there and `overwrite` was not given.
        case exists(path: String)
        /// The server's name cannot be one file in the folder (`..`, a `/`, a control character).
        case unsafeName(SharePointError)
        /// The download failed.
        case failed(SharePointError)
    }

    /// The attachment's name as the server gave it.
    public let name: String
    public let result: Result
}

/// A list item's attachments saved into a local folder, each as its own name, one at a time (they are small): a
/// name that is not a plain file name is refused, a file already there is kept unless `overwrite`. It never prints.
public enum AttachmentDownloads {
    /// Saves `attachments` of item `id` of `list` into `folder`; one outcome per attachment, in order.
    public static func save(
        _ attachments: [Attachment], of list: ListPath, id: Int, into folder: LocalFolder, overwrite: Bool,
        site: SharePointSite
    ) async -> [AttachmentOutcome] {
        var outcomes: [AttachmentOutcome] = []
        for attachment in attachments {
            let name = attachment.fileName
            guard isPlainName(name) else {
                let refusal = SharePointError(
                    localFile: "refused to save the attachment '\(name)'",
                    detail: "its name is not a plain file name, so it could land outside \(folder.path)")
                outcomes.append(AttachmentOutcome(name: name, result: .unsafeName(refusal)))
                continue
            }
            // Checked again when the file is moved into place: this only spares fetching what would be refused.
            if !overwrite, ((try? folder.entry(name)) ?? nil) != nil {
                outcomes.append(AttachmentOutcome(name: name, result: .exists(path: folder.path(of: name))))
                continue
            }
            do {
                let bytes = try await site.downloadAttachment(
                    named: name, in: list, id: id, into: folder, as: name, replacing: overwrite)
                outcomes.append(
                    AttachmentOutcome(name: name, result: .downloaded(bytes: bytes, path: folder.path(of: name))))
            } catch {
                let result: AttachmentOutcome.Result =
                    error.kind == .alreadyExists ? .exists(path: folder.path(of: name)) : .failed(error)
                outcomes.append(AttachmentOutcome(name: name, result: result))
            }
        }
        return outcomes
    }

    /// Not empty, not `.` or `..`, no `/`, `\` or NUL, and no control characters: a name a server gives that may be
    /// written as one file in a folder.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
