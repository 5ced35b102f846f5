import HTTPServer

/// Check-out and check-in of a file: what the file says about them (`CheckOutType`, `CheckInComment`).
extension SimulatorCore {
    /// `POST …/checkout()` (the file becomes checked out to the caller: `CheckOutType` 0) and
    /// `POST …/checkin(comment='…',checkintype=N)` (checked in again with that comment, kept as `CheckInComment`);
    /// both answer 200 with no body. A check-in of a file nobody checked out → 400, as SharePoint answers.
    func checkOutOrIn(_ file: SPFile, _ segment: Segment, _ context: RESTContext) throws -> HTTPServerResponse {
        try requireDigest(context)
        let user = spUserId(context.user ?? 0)
        let checkingIn = segment.lower == "checkin"
        let comment = segment.parameter("comment") ?? ""
        let done: Bool = state.withLock { state in
            guard let index = state.files.firstIndex(where: { $0.uniqueId == file.uniqueId }) else { return false }
            if checkingIn {
                guard state.files[index].checkedOutBy != nil else { return false }
                state.files[index].checkedOutBy = nil
                state.files[index].checkInComment = comment
            } else {
                state.files[index].checkedOutBy = user
            }
            return true
        }
        guard done else {
            throw RESTError(
                status: 400, code: "-2147024809, System.ArgumentException",
                message: "The file \(file.serverRelativeUrl) is not checked out.")
        }
        return HTTPServerResponse(status: 200, headers: standardHeaders())
    }
}
