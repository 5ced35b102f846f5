import Foundation

extension SessionStore {
    /// The names of the profiles with a saved session, sorted: every `NAME.cookies` in ``directory`` whose name is
    /// a valid profile name. Nothing is read from the files; ``load(profile:)`` does that, with its trust checks.
    /// Empty when the folder does not exist yet.
    public func profiles() throws(StoreError) -> [String] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .io(path: directory, reason: "cannot list the folder (\(error.localizedDescription))")
        }
        return names.filter { $0.hasSuffix(".cookies") }.map { String($0.dropLast(".cookies".count)) }
            .filter { (try? path(for: $0)) != nil }.sorted()
    }
}
