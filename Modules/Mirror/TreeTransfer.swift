import LocalFiles
public import SharePoint

/// Mirrors a library folder into a local folder (``download(_:to:incremental:report:)``) or a local folder into a
/// library folder (``upload(_:to:report:)``): plans what each file needs from the ledger the last run kept, holds
/// the local folder's lock, transfers in parallel, deletes what the other side no longer has when asked, and
/// reports each result as a ``TreeEvent``. It never prints. A plain value.
public struct TreeTransfer: Sendable {
    /// The site both sides talk to.
    public let site: SharePointSite
    public let options: TreeOptions

    /// A transfer with `site` and `options`.
    public init(site: SharePointSite, options: TreeOptions) {
        self.site = site
        self.options = options
    }

    /// The local folder's lock (``treeLockFileName``), waiting up to ``TreeOptions/wait`` and reporting the wait.
    func takeTreeLock(in folder: LocalFolder, results: TreeResults) async throws(LocalFileError) -> LockAttempt {
        try await takeLock(treeLockFileName, in: folder, waiting: options.wait) { results.event(.waitingForLock($0)) }
    }
}

/// A library folder as the user named it: its server-relative path, and another reading to try when that path is
/// not found (a word whose first segment is a list's title: `Documents/Reports` → `/Shared Documents/Reports`).
public struct RemoteFolder: Sendable {
    /// The server-relative path (`/sites/team/Shared Documents/Reports`).
    public let path: String
    /// The other reading, asked for only when ``path`` is not found; nil or nil-returning when there is none.
    public let alternative: (@Sendable () async throws -> String?)?

    /// A folder at `path`, with an `alternative` reading.
    public init(path: String, alternative: (@Sendable () async throws -> String?)? = nil) {
        self.path = path
        self.alternative = alternative
    }

    /// `body` with ``path``, or with the alternative reading when that path is not found.
    public func located<T>(_ body: (String) async throws -> T) async throws -> T {
        do {
            return try await body(path)
        } catch let missing as SharePointError where missing.kind == .fileNotFound || missing.kind == .notFound {
            guard let alternative, let other = try await alternative() else { throw missing }
            return try await body(other)
        }
    }
}

/// A local folder a tree transfer cannot use: the path and what is wrong with it. The caller decides how to name
/// the option that gave it.
public struct MirrorSetupError: Error, Sendable, CustomStringConvertible {
    /// The local path.
    public let path: String
    /// What is wrong (`cannot make that folder (Permission denied)`).
    public let problem: String

    /// `PATH: PROBLEM`.
    public var description: String { "\(path): \(problem)" }
}
