public import SharePoint

/// What became of one id given to ``BulkDeletion/delete(_:in:etag:site:)``.
public enum DeleteOutcome: Sendable {
    /// Gone to the site's recycle bin.
    case deleted
    /// SharePoint refused to delete it (or the request failed before anything was written).
    case failed(SharePointError)
    /// Its batch reached the server and got no usable answer: it may have been deleted.
    case unknown(SharePointError)
    /// Left alone after a failure that stopped the run.
    case notTried

    /// The result as a row says it.
    public var text: String {
        switch self {
        case .deleted: return "deleted"
        case .unknown: return "unknown"
        case .notTried: return "not tried"
        case .failed(let error):
            switch error.kind {
            case .itemNotFound: return "not found"
            case .preconditionFailed: return "changed since read (etag)"
            case .accessDenied: return "access denied"
            case .throttled: return "throttled"
            default: return "failed (HTTP \(error.status))"
            }
        }
    }
}

/// `delete` as a library: list items to the site's recycle bin, one outcome per id; it prints nothing.
public enum BulkDeletion {
    /// Deletes the items in `$batch` requests of up to 100 when there are several (one result per id, as SharePoint
    /// answers each), else with one request. A list that does not exist is thrown as such (every part of the first
    /// batch says so), so that ``SharePointSite/withList(named:_:)`` can try its address; a batch that fails as a whole (the session,
    /// the network, throttling after the retries, an answer that cannot be read) stops there: its ids are `unknown`
    /// when the server may have deleted them (``SharePointError/mayHaveBeenWritten``), else its first id carries the
    /// failure; the ids after it are not tried.
    public static func delete(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
        async throws(SharePointError) -> [(id: Int, outcome: DeleteOutcome)]
    {
        try await deleteItems(ids, in: list, etag: etag, site: site)
    }
}

private func deleteItems(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, outcome: DeleteOutcome)]
{
    guard ids.count > 1 else { return try await deleteItemsOneByOne(ids, in: list, etag: etag, site: site) }
    var outcomes: [(id: Int, outcome: DeleteOutcome)] = []
    var start = 0
    while start < ids.count {
        let chunk = Array(ids[start..<min(start + SharePointSite.maximumBatchChanges, ids.count)])
        do throws(SharePointError) {
            let answers = try await site.batchWrite(chunk.map { BatchItemChange.delete(id: $0) }, in: list)
            if outcomes.isEmpty, let first = answers.first?.error,
                answers.allSatisfy({ $0.error?.kind == .listNotFound })
            {
                throw first
            }
            outcomes += zip(chunk, answers).map { ($0, $1.error.map(DeleteOutcome.failed) ?? .deleted) }
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            if error.mayHaveBeenWritten {
                outcomes += chunk.map { ($0, .unknown(error)) }
            } else {
                outcomes.append((chunk[0], .failed(error)))
            }
            for rest in ids[outcomes.count...] { outcomes.append((rest, .notTried)) }
            return outcomes
        }
        start += chunk.count
    }
    return outcomes
}

/// Deletes each item in turn, keeping each one's failure. A list that does not exist stops at the first id (so that
/// ``SharePointSite/withList(named:_:)`` can try its address instead, or report it once); a failure that is not about the item
/// (the session, the network, throttling) stops there too, the remaining ids marked as not tried.
private func deleteItemsOneByOne(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
    async throws(SharePointError) -> [(id: Int, outcome: DeleteOutcome)]
{
    var outcomes: [(id: Int, outcome: DeleteOutcome)] = []
    for id in ids {
        do {
            try await site.deleteItem(in: list, id: id, etag: etag)
            outcomes.append((id, .deleted))
        } catch  where error.kind == .listNotFound && outcomes.isEmpty {
            throw error
        } catch {
            outcomes.append((id, .failed(error)))
            switch error.kind {
            case .itemNotFound, .preconditionFailed, .accessDenied, .conflict: continue
            default:
                for rest in ids[(outcomes.count)...] { outcomes.append((rest, .notTried)) }
                return outcomes
            }
        }
    }
    return outcomes
}
