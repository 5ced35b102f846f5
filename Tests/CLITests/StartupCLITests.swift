import Foundation
import TestSupport
import Testing

/// What a run that never uses the keyring loads: not libsecret, nor the GLib it runs on (they are opened on the
/// keyring's first use; decision 0021).
@Suite struct StartupCLITests {
    @Test func aRunWithoutTheKeyringLoadsNeitherLibsecretNorGLib() async throws {
        // The dynamic loader names every library it opens when LD_DEBUG=files (on stderr).
        let version = try await runSpconnect(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(version.status == 0 && version.stdout.hasPrefix("spconnect "), "\(version.stderr.suffix(300))")
        #expect(version.stderr.contains("file=libcurl"), "LD_DEBUG names no library: \(version.stderr.prefix(300))")
        for library in ["libsecret", "libglib", "libgio", "libgobject"] {
            #expect(!version.stderr.contains("file=\(library)"), "spconnect --version loaded \(library)")
        }
    }
}
