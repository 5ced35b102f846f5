import Foundation
import HTTPServer

/// Item attachments: `…/items(ID)/AttachmentFiles` (`SP.Attachment`), one attachment's bytes
/// (`…/AttachmentFiles('name')/$value`, also `getByFileName('name')`), and adding one
/// (`…/AttachmentFiles/add(FileName='name')`, POST with the bytes), as SharePoint answers them.
extension SimulatorCore {
    func routeAttachments(_ list: SPList, id: Int, _ segment: Segment, _ rest: [Segment], context: RESTContext) throws
        -> HTTPServerResponse
    {
        let attachments = state.withLock { _ in list.attachments[id] ?? [] }
        // `AttachmentFiles('name')`, or `AttachmentFiles/getByFileName('name')`.
        var name = segment.stringArgument
        var tail = rest
        if name == nil, let next = tail.first {
            switch next.lower {
            case "getbyfilename":
                name = next.stringArgument
                tail.removeFirst()
            case "add":
                return try addAttachment(list, id: id, next, context)
            default:
                throw RESTError.invalidQuery("The property '\(next.name)' does not exist on type 'SP.Attachment'.")
            }
        }
        guard let name else {
            let entries = attachments.map { applySelect(attachmentEntity($0, list, id: id, context), context.query) }
            return jsonResponse(
                collection(entries, set: "SP.ApiData.Attachments", next: nil, context: context), context)
        }
        guard let attachment = attachments.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw RESTError.notFound("File Not Found.")
        }
        switch tail.first?.lower {
        case nil: return jsonResponse(attachmentEntity(attachment, list, id: id, context, top: true), context)
        case "$value":
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", "application/octet-stream")] + standardHeaders(),
                body: .bytes(attachment.bytes))
        case let property?:
            throw RESTError.invalidQuery("The property '\(property)' does not exist on type 'SP.Attachment'.")
        }
    }

    func attachmentEntity(
        _ attachment: SPAttachment, _ list: SPList, id: Int, _ context: RESTContext, top: Bool = false
    )
        -> JSON
    {
        let url = list.url + "/Attachments/\(id)/" + attachment.name
        return entity(
            type: "SP.Attachment",
            path: itemPath(list, id) + "/AttachmentFiles('\(percentEncodePath(odataQuote(attachment.name)))')",
            set: "SP.Attachment",
            props: [
                ("FileName", .string(attachment.name)),
                ("FileNameAsPath", complex("SP.ResourcePath", [("DecodedUrl", .string(attachment.name))], context)),
                ("ServerRelativePath", complex("SP.ResourcePath", [("DecodedUrl", .string(url))], context)),
                ("ServerRelativeUrl", .string(url)),
            ], deferred: [], context: context, top: top)
    }

    /// `…/AttachmentFiles/add(FileName='name')`: a name the item already has → 400, as SharePoint answers.
    func addAttachment(_ list: SPList, id: Int, _ segment: Segment, _ context: RESTContext) throws
        -> HTTPServerResponse
    {
        try requireDigest(context)
        guard let name = segment.parameter("FileName") ?? segment.stringArgument, !name.isEmpty,
            !name.contains("/")
        else { throw RESTError.argument("The file name is not valid.") }
        let attachment = SPAttachment(name: name, bytes: context.request.body)
        let added: Bool = state.withLock { state in
            var existing = list.attachments[id] ?? []
            if existing.contains(where: { $0.name.lowercased() == name.lowercased() }) { return false }
            existing.append(attachment)
            list.attachments[id] = existing
            state.logItemChange(.update, in: list, itemId: id)  // an attachment more changes the item
            return true
        }
        guard added else {
            throw RESTError(
                status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
                message: "A file with the name \(list.url)/Attachments/\(id)/\(name) already exists.")
        }
        return jsonResponse(attachmentEntity(attachment, list, id: id, context, top: true), context)
    }
}
