import Foundation
public import Testing

/// Compares `actual` with the snapshot `name` kept beside the calling test file, in `__Snapshots__/`.
///
/// Run with `SNAPSHOT_RECORD=1 swift test` (one suite at a time with `--filter`) to write or rewrite the snapshots
/// from what the code produces; review the diff, then commit the files. Without it, a difference is a test issue
/// naming the first differing line, and the actual text is written beside the snapshot as `NAME.actual` (not
/// committed: `.gitignore` keeps it out) for a side-by-side look. A missing snapshot is an issue too, never a pass.
public func expectSnapshot(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent(name)
    let actualFile = folder.appendingPathComponent(name + ".actual")
    if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file, options: .atomic)
            try? FileManager.default.removeItem(at: actualFile)
        } catch {
            Issue.record(
                Comment(rawValue: "cannot record snapshot \(file.path): \(error)"), sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = snapshotText(named: name, filePath: filePath) else {
        Issue.record(
            Comment(rawValue: "no snapshot \(file.path): record it with SNAPSHOT_RECORD=1 swift test --filter …"),
            sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else {
        try? FileManager.default.removeItem(at: actualFile)
        return
    }
    try? Data(actual.utf8).write(to: actualFile, options: .atomic)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
    let detail =
        first.map { "line \($0.offset + 1): got \"\($0.element.0)\", expected \"\($0.element.1)\"" }
        ?? "lengths differ: \(actualLines.count) vs \(expectedLines.count) lines"
    let message =
        "snapshot \(name) differs (\(detail)); the actual text is in \(actualFile.path) "
        + "(SNAPSHOT_RECORD=1 rewrites the snapshot)"
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// The text of the snapshot `name` beside the calling test file (in `__Snapshots__/`), for an expectation derived
/// from it; nil when there is none.
public func snapshotText(named name: String, filePath: String = #filePath) -> String? {
    let file = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        .appendingPathComponent(name)
    return FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) }
}
