public import SharePoint

/// What `delete` would do with one id, read without writing (``BulkDeletion/plan(_:in:etag:site:)``).
public struct DeletionPlan: Sendable {
    /// What a deletion of the item would meet.
    public enum Verdict: Sendable, Equatable {
        /// It is there (and its etag is the one given, or none was).
        case wouldDelete
        /// An etag was given and the answer carries none (the default flavour): the server checks it then.
        case wouldDeleteIfUnchanged(etag: String)
        /// An etag was given and the item's is another.
        case changed
        /// No such item.
        case notFound
    }

    public let id: Int
    /// The item's title (empty when it has none or was not found).
    public let title: String
    public let verdict: Verdict

    /// The result as a row says it.
    public var text: String {
        switch verdict {
        case .wouldDelete: "would delete"
        case .wouldDeleteIfUnchanged(let etag): "would delete if its etag is still \(etag)"
        case .changed: "changed since read (etag)"
        case .notFound: "not found"
        }
    }
}

extension BulkDeletion {
    /// `delete --dry-run`: each item looked up (its id and title) and what a deletion with `etag` (`*`: any) would
    /// meet, one plan per id in order. Nothing is written; a failure other than a missing item is thrown.
    public static func plan(_ ids: [Int], in list: ListPath, etag: String, site: SharePointSite)
        async throws(SharePointError) -> [DeletionPlan]
    {
        var plans: [DeletionPlan] = []
        for id in ids {
            do {
                let item = try await site.item(in: list, id: id, query: ODataQuery(select: ["Id", "Title"]))
                let title = item.fields.first { $0.0 == "Title" }?.1.stringValue ?? ""
                var verdict = DeletionPlan.Verdict.wouldDelete
                if etag != "*" {
                    if let current = item.etag {
                        if current != etag { verdict = .changed }
                    } else {
                        verdict = .wouldDeleteIfUnchanged(etag: etag)
                    }
                }
                plans.append(DeletionPlan(id: id, title: title, verdict: verdict))
            } catch  where error.kind == .itemNotFound {
                plans.append(DeletionPlan(id: id, title: "", verdict: .notFound))
            }
        }
        return plans
    }
}
