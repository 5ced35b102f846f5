import Foundation
import HTTPServer

/// Writing files: `Files/add(url='…')` and `Files/AddUsingPath(decodedurl='…')`, and chunked uploads
/// (`startupload`, `continueupload`, `finishupload`, `cancelupload`).
extension SimulatorCore {
    /// `Files/add(url='…',overwrite=…)` (the name percent-decoded once more, as every `…Url` form) and
    /// `Files/addusingpath(decodedurl='…',overwrite=…)` (the name as is) into `folder` of `list`.
    func addFile(_ list: SPList, folder: String, _ segment: Segment, _ context: RESTContext) throws
        -> HTTPServerResponse
    {
        try requireDigest(context)
        let name: String
        if segment.lower == "addusingpath" {
            name = segment.parameter("decodedurl") ?? ""
        } else {
            name = try decodedURLLiteral(segment.parameter("url") ?? "")
        }
        guard !name.isEmpty, !name.contains("/") else { throw RESTError.argument("The file name is not valid.") }
        let overwrite = (segment.parameter("overwrite") ?? "false").lowercased() == "true"
        let bytes = context.request.body
        let now = nowEpoch()
        let result: SPFile? = state.withLock { state in
            if let index = state.files.firstIndex(where: {
                $0.folder.lowercased() == folder.lowercased() && $0.name.lowercased() == name.lowercased()
            }) {
                guard overwrite else { return nil }
                Self.keepVersion(of: index, in: &state)
                state.files[index].content = .bytes(
                    OfficeDocuments.stored(bytes, named: name, uniqueId: state.files[index].uniqueId))
                state.files[index].majorVersion += 1
                state.files[index].modified = now
                list.lastModified = now
                state.logFileChange(.update, state.files[index])
                return state.files[index]
            }
            return addUploadedFile(
                bytes, named: name, in: folder, of: list, author: spUserId(context.user ?? 0), now: now, &state)
        }
        guard let result else {
            throw RESTError(
                status: 400, code: "-2130575257, Microsoft.SharePoint.SPException",
                message:
                    "A file with the name \(folder)/\(name) already exists. It was last modified by \(claimsLogin(context.user ?? 0))."
            )
        }
        return jsonResponse(fileEntity(result, context, top: true), context)
    }

    /// `startupload` / `continueupload` / `finishupload` / `cancelupload` (offsets are Int64 strings).
    func chunkedUpload(_ file: SPFile, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        guard let uploadId = segment.parameter("uploadId")?.lowercased() else {
            throw RESTError.argument("Value does not fall within the expected range.")
        }
        let chunk = context.request.body
        let offset = segment.parameter("fileOffset").flatMap { Int64($0) }
        let operation = segment.lower
        let key = file.uniqueId + "/" + uploadId
        let outcome: Result<Int, RESTError> = state.withLock { state in
            switch operation {
            case "startupload":
                state.uploads[key] = chunk
                return .success(chunk.count)
            case "cancelupload":
                state.uploads[key] = nil
                return .success(0)
            default:
                guard let existing = state.uploads[key] else {
                    return .failure(
                        RESTError(
                            status: 400, code: "-2147018894, Microsoft.SharePoint.SPFileUploadSessionNotFoundException",
                            message: "The upload session was not found."))
                }
                guard offset == Int64(existing.count) else {
                    return .failure(
                        RESTError(
                            status: 400, code: "-2147018893, Microsoft.SharePoint.SPInvalidFileOffsetException",
                            message: "The file offset is not valid: expected \(existing.count)."))
                }
                state.uploads[key] = existing + chunk
                return .success(existing.count + chunk.count)
            }
        }
        let length: Int
        switch outcome {
        case .success(let value): length = value
        case .failure(let error): throw error
        }
        switch operation {
        case "cancelupload":
            return HTTPServerResponse(status: 200, headers: standardHeaders())
        case "finishupload":
            let bytes = state.withLock { state -> [UInt8] in
                defer { state.uploads[key] = nil }
                return state.uploads[key] ?? []
            }
            let updated = replaceContent(file, with: bytes)
            return jsonResponse(fileEntity(updated, context, top: true), context)
        default:
            let name = operation == "startupload" ? "StartUpload" : "ContinueUpload"
            let value = JSON.string(String(length))
            switch context.flavour {
            case .verbose: return jsonResponse(.object([("d", .object([(name, value)]))]), context)
            case .minimal, .atom:
                return jsonResponse(
                    .object([("odata.metadata", .string(context.site + "/_api/$metadata#Edm.Int64")), ("value", value)]
                    ), context)
            case .nometadata: return jsonResponse(.object([("value", value)]), context)
            }
        }
    }
}

extension SimulatorCore {
    /// A new file uploaded now (REST `Files/add`, WebDAV `PUT`): its item, a fresh unique id, the list's time, and
    /// its add in the change log. Called under the state's lock.
    func addUploadedFile(
        _ bytes: [UInt8], named name: String, in folder: String, of list: SPList, author: Int, now: Int,
        _ state: inout SimulatorState
    ) -> SPFile? {
        var created: [SPFile] = []
        SiteContent.addFile(
            to: list, folder: folder, name: name, content: .bytes(bytes), seed: options.seed ^ UInt64(now),
            author: author, files: &created)
        guard var file = created.first else { return nil }
        file.uniqueId = Tokens.guid()
        file.content = .bytes(OfficeDocuments.stored(bytes, named: name, uniqueId: file.uniqueId))
        file.created = now
        file.modified = now
        list.lastModified = now
        state.files.append(file)
        state.logFileChange(.add, file)
        return file
    }
}
