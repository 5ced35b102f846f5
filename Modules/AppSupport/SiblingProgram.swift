package import Foundation

/// The programs installed beside the running one (`spsim` and `spconnect-status` beside `spconnect`), found from
/// the running executable itself (`/proc/self/exe`), not from `argv[0]`, which is a bare name when the program was
/// found on `PATH`.
package enum SiblingProgram {
    /// The folder of the running executable, symbolic links resolved.
    package static var folder: URL {
        let own =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        return URL(fileURLWithPath: own).deletingLastPathComponent()
    }

    /// The path `name` has beside the running executable (whether or not it is there).
    package static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }
}
