import CommandLineKit
public import SharePoint

/// Runs `body`; when the list `word` names is not found (exit 8), the message gains the closest list title of the
/// site ("Did you mean 'Tasks'?"), read with one listing of the lists after the list was not found (nothing is added
/// when nothing is close, or the lists cannot be read).
public func withListSuggestion<T>(
    _ word: String, site: SharePointSite, _ body: () async throws -> T
) async throws -> T {
    do {
        return try await body()
    } catch var error as SharePointError where error.kind == .listNotFound {
        guard let titles = try? await site.lists().map(\.title),
            let match = Suggestions.closest(to: word, in: titles)
        else { throw error }
        error.message = (error.message.map { $0 + " " } ?? "") + "Did you mean '\(match)'?"
        throw error
    }
}
