import CommandLineKit
import Foundation
import ListOperations
import LocalFiles
import SharePoint

/// One export of a list per profile at a time: `items LIST` with `--out FILE` or `--since-token FILE` (a job's
/// export) takes a lock file in the profile's session folder, named after the profile, the site and the list
/// (`PROFILE.export-HASH.lock`, `flock(2)`, released by the kernel when the process ends, so a killed run never
/// leaves it held). A second export of the same list with the same profile waits up to `--wait SECONDS`, then exits
/// 15 naming the holder's PID; other lists, sites and profiles are not held up.
enum ExportLock {
    /// `--wait SECONDS` of `items`.
    static let waitOption = OptionSpec.value(
        .wait, "SECONDS",
        "with --out or --since-token: when another run exports this list with the same profile, wait up to SECONDS "
            + "for it (default 0: exit 15 at once)")

    /// Whether the command line is an export that takes the lock.
    static func applies(_ arguments: ParsedArguments) -> Bool {
        arguments.value(.out) != nil || arguments.value(sinceTokenOption.key) != nil
    }

    /// The lock of `list` on `site` for the context's profile; nil (said on standard error) when another run holds it
    /// past `--wait`. A session folder where the lock file cannot be made is said once, and the export goes on.
    static func take(
        list: String, context: SiteContext, arguments: ParsedArguments, output: Output
    ) async throws -> (lock: FolderLock?, held: Bool) {
        let wait = try lockWait(arguments)
        let name = ItemExport.lockName(profile: context.session.profile, siteURL: context.site.siteURL, list: list)
        do throws(LocalFileError) {
            let folder = try LocalFolder(path: context.session.store.directory)
            let lock = try await lockFile(
                name, in: folder, guarding: "the export of '\(list)' (profile '\(context.session.profile)')",
                command: "items", waiting: wait, output: output)
            return (lock, lock == nil)
        } catch {
            output.note("spconnect items: the export of '\(list)' runs without a lock (\(error.description))")
            return (nil, false)
        }
    }
}
