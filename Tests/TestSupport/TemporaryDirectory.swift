import Foundation

/// A new, empty folder for one test (`/tmp/spc-LABEL-UUID`, only this user may enter it); the test removes it.
/// The one way every suite makes its scratch folders.
public func temporaryDirectory(_ label: String = "test") throws -> String {
    let path = NSTemporaryDirectory() + "spc-\(label)-" + UUID().uuidString
    try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return path
}
