/// Whether a file is checked out: `SP.File.CheckOutType` (`SP.CheckOutType`).
public enum CheckOutType: Sendable, Equatable {
    /// Checked out for editing on the server (`0`, "Online").
    case online
    /// Checked out to a client's local copy (`1`, "Offline").
    case offline
    /// Not checked out (`2`, "None").
    case none
    /// A value this version does not know.
    case other(Int)

    /// The value as SharePoint sends it.
    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .online
        case 1: self = .offline
        case 2: self = .none
        default: self = .other(rawValue)
        }
    }

    /// Whether someone has the file checked out.
    public var isCheckedOut: Bool { self != .none }
}

extension SharePointSite {
    /// A file's properties with who created and last changed it:
    /// `GET …/GetFileByServerRelativeUrl('…')?$expand=Author,ModifiedBy`. A missing file →
    /// ``SharePointError/Kind/fileNotFound``.
    public func fileProperties(serverRelativeURL: String) async throws(SharePointError) -> File {
        try await getEntity(
            API.file(serverRelativeUrl: serverRelativeURL).path, query: ODataQuery(expand: ["Author", "ModifiedBy"]))
    }
}
