public import LocalFiles

extension SharePointError {
    /// Wraps a local file error: kind ``Kind/localFile``, its sentence as the message.
    public init(_ error: LocalFileError) {
        self.init(localFile: "could not \(error.action) \(error.path)", detail: error.reason)
    }
}
