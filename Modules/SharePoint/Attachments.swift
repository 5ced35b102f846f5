public import Foundation
public import LocalFiles

/// A file attached to a list item: `GET …/items(ID)/AttachmentFiles` (`SP.Attachment`). Decoding requires
/// `FileName`.
public struct Attachment: ODataDecodable, Equatable {
    /// The file name, e.g. `receipt.pdf`.
    public var fileName: String
    /// The attachment's server-relative URL, e.g. `/sites/team/Lists/Tasks/Attachments/7/receipt.pdf` (from
    /// `ServerRelativeUrl`, else `ServerRelativePath.DecodedUrl`).
    public var serverRelativeUrl: String
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (see ``ODataDecodable``).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        fileName = try entity.requiredString("FileName")
        serverRelativeUrl =
            entity.string("ServerRelativeUrl") ?? entity["ServerRelativePath"]?["DecodedUrl"]?.stringValue ?? ""
    }
}

extension SharePointSite {
    /// The files attached to an item: `GET …/items(ID)/AttachmentFiles`, in the server's order. A missing item →
    /// ``SharePointError/Kind/itemNotFound``.
    public func attachments(in list: ListPath, id: Int) async throws(SharePointError) -> [Attachment] {
        try await collect(list.item(id).attachmentFiles, query: ODataQuery())
    }

    /// Downloads one attachment (`GET …/items(ID)/AttachmentFiles('name')/$value`) as `name` in the local `folder`,
    /// with the same guarantees as ``download(serverRelativeURL:into:as:modified:replacing:progress:)``: streamed to
    /// a temporary file in `folder`, moved into place only when complete, never through a symbolic link, and with
    /// `replacing: false` never over anything already at `name` (``SharePointError/Kind/alreadyExists``).
    ///
    /// - Returns: the number of bytes written.
    @discardableResult
    public func downloadAttachment(
        named fileName: String, in list: ListPath, id: Int, into folder: LocalFolder, as name: String,
        replacing: Bool = true
    ) async throws(SharePointError) -> Int64 {
        let url = list.item(id).attachmentValue(named: fileName).url(site: siteURL)
        return try await download(from: url, into: folder, as: name, modified: nil, replacing: replacing, progress: nil)
    }
}
