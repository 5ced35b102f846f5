import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` into a fresh prefix, reusing the binaries this test run built (`SPCONNECT_INSTALL_FROM`),
/// so it costs no release build; the release build itself is the same script without that variable.
@Suite struct InstallScriptTests {
    private let script =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/install.sh").path

    @Test func installsIntoAFreshPrefixAndUninstallsEveryFile() async throws {
        let home = try temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let built = URL(fileURLWithPath: spconnectPath).deletingLastPathComponent().path
        let environment = ["HOME": home, "SPCONNECT_INSTALL_FROM": built]
        let install = try await runTool("/bin/bash", [script], environment: environment)
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        // The default prefix is ~/.local.
        let prefix = home + "/.local"
        let version = try await runTool(prefix + "/bin/spconnect", ["--version"], environment: ["HOME": home])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("spconnect "))
        let files = [
            "share/bash-completion/completions/spconnect", "share/zsh/site-functions/_spconnect",
            "share/fish/vendor_completions.d/spconnect.fish", "share/man/man1/spconnect.1",
        ]
        for file in files {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains("items"), "\(file) is not the generated file")
        }
        let page = try String(contentsOfFile: prefix + "/share/man/man1/spconnect.1", encoding: .utf8)
        #expect(page.hasPrefix(".TH SPCONNECT 1"))

        let other = home + "/elsewhere"
        let explicit = try await runTool("/bin/bash", [script, "--prefix", other], environment: environment)
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(FileManager.default.isExecutableFile(atPath: other + "/bin/spconnect"))
        // Stripped when binutils' strip is there (decision 0030); --keep-symbols installs the program as built.
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/strip") {
            #expect(size(other + "/bin/spconnect") < size(built + "/spconnect"), "the installed program is stripped")
        }
        let kept = home + "/kept"
        let keeping = try await runTool(
            "/bin/bash", [script, "--prefix", kept, "--keep-symbols"], environment: environment)
        #expect(keeping.status == 0, "\(keeping.stderr)")
        #expect(size(kept + "/bin/spconnect") == size(built + "/spconnect"), "--keep-symbols installs it as built")

        let uninstall = try await runTool("/bin/bash", [script, "--uninstall"], environment: ["HOME": home])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        for file in files + ["bin/spconnect", "bin/spconnect-status"] {
            #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left behind")
        }
        #expect(FileManager.default.isExecutableFile(atPath: other + "/bin/spconnect"), "only the given prefix")

        let wrong = try await runTool("/bin/bash", [script, "--prefx", other], environment: environment)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("unknown option '--prefx'"))
    }
}
