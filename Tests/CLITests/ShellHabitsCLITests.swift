import Foundation
import TestSupport
import Testing

/// The shell habits: "did you mean", `help COMMAND`, examples, `-o`, and the completion scripts and man page made
/// from the command table.
@Suite struct ShellHabitsCLITests {
    /// A home, state and config folder that do not exist, so no saved session or config file of the machine takes
    /// part (and nothing is left behind).
    private func isolated() throws -> [String: String] {
        let home = NSTemporaryDirectory() + "spc-habits-absent-" + UUID().uuidString
        return ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config"]
    }

    @Test func anUnknownCommandSuggestsTheClosestOne() async throws {
        let typo = try await runSpconnect(["itmes"], environment: try isolated())
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown command 'itmes'. Did you mean 'items'?"), "\(typo.stderr)")
        #expect(typo.stdout.isEmpty)
        let far = try await runSpconnect(["frobnicate"], environment: try isolated())
        #expect(far.status == 2)
        #expect(far.stderr.contains("unknown command 'frobnicate'"))
        #expect(!far.stderr.contains("Did you mean"), "nothing is close to frobnicate: \(far.stderr)")
    }

    @Test func anUnknownOptionSuggestsTheClosestOne() async throws {
        let typo = try await runSpconnect(["items", "Tasks", "--fitler", "Id gt 1"], environment: try isolated())
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown option '--fitler' for 'spconnect items'. Did you mean '--filter'?"))
        let single = try await runSpconnect(["lists", "-output", "csv"], environment: try isolated())
        #expect(single.status == 2)
        #expect(single.stderr.contains("Did you mean '--output'?"), "\(single.stderr)")
    }

    @Test func helpCommandPrintsThatCommandsHelpWithExamples() async throws {
        let help = try await runSpconnect(["help", "items"], environment: try isolated())
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.hasPrefix("usage: spconnect items LIST"))
        #expect(help.stdout.contains("\nexamples:\n  spconnect items Tasks\n"))
        #expect(help.stdout.contains("-o, --output FORMAT"))
        #expect(help.stdout.contains("-v, --verbose"))
        #expect(!help.stdout.contains("commands:"), "the command's help, not the overview")
        let dashed = try await runSpconnect(["items", "--help"], environment: try isolated())
        #expect(dashed.stdout == help.stdout)
        let overview = try await runSpconnect(["help"], environment: try isolated())
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("commands:"))
        #expect(!overview.stdout.contains("\n  man "), "hidden commands stay out of the overview")
        let typo = try await runSpconnect(["help", "itmes"], environment: try isolated())
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("Did you mean 'items'?"))
    }

    @Test func everyCommandsHelpHasExamplesOfThatCommand() async throws {
        let names = try await commandNames()
        #expect(names.count >= 20 && names.contains("profiles") && names.contains("completion"))
        for name in names {
            let help = try await runSpconnect(["help", name], environment: try isolated())
            #expect(help.status == 0)
            let examples = help.stdout.components(separatedBy: "\nexamples:\n").dropFirst().first ?? ""
            #expect(examples.contains("spconnect \(name)"), "no example of \(name): \(help.stdout)")
        }
    }

    @Test func shortOIsOutput() async throws {
        let fixture = try await CLIFixture()
        let short = try await fixture.run(["lists", "-o", "csv"])
        let long = try await fixture.run(["lists", "--output", "csv"])
        #expect(short.status == 0, "\(short.stderr)")
        #expect(short.stdout.hasPrefix("Title,"), "\(short.stdout)")
        #expect(short.stdout == long.stdout)
    }

    // MARK: Completion and the man page

    @Test func bashCompletionOffersItemsAfterIt() async throws {
        let script = try await runSpconnect(["completion", "bash"], environment: try isolated())
        #expect(script.status == 0, "\(script.stderr)")
        let folder = try temporaryDirectory("completion")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/spconnect.bash"
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) async throws -> [String] { try await bashCompletions(script: file, words) }
        #expect(try await complete(["spconnect", "it"]).sorted() == ["item", "items"])
        #expect(try await complete(["spconnect", "items", "Tasks", "--fi"]) == ["--filter"])
        #expect(try await complete(["spconnect", "items", "-o", ""]) == ["table", "json", "ndjson", "csv"])
        #expect(try await complete(["spconnect", "help", "prof"]) == ["profiles"])
        #expect(try await complete(["spconnect", "completion", "z"]) == ["zsh"])
        #expect(try await complete(["spconnect", "m"]) == ["mkdir", "mv"], "the hidden man command is not offered")
    }

    @Test func zshAndFishScriptsNameEveryCommand() async throws {
        let names = try await commandNames()
        for shell in ["zsh", "fish"] {
            let script = try await runSpconnect(["completion", shell], environment: try isolated())
            #expect(script.status == 0)
            for name in names {
                let entry = shell == "zsh" ? "    \(name)) _arguments" : "-a \(name) -d "
                #expect(script.stdout.contains(entry), "\(shell) lacks \(name)")
            }
        }
        #expect(try await runSpconnect(["completion", "tcsh"], environment: try isolated()).status == 2)
    }

    static func installed(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)") }

    @Test(
        "zsh and fish read their completion scripts",
        .enabled(
            if: installed("zsh") && installed("fish"),
            "zsh or fish is not installed (EXTRA_PACKAGES=\"zsh fish\" ./scripts/setup.sh)"))
    func zshAndFishReadTheirScripts() async throws {
        let folder = try temporaryDirectory("shells")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for shell in ["zsh", "fish"] {
            let file = folder + "/spconnect.\(shell)"
            try await runSpconnect(["completion", shell], environment: try isolated()).stdout
                .write(toFile: file, atomically: true, encoding: .utf8)
            let syntax = try await runTool("/usr/bin/\(shell)", ["-n", file])
            #expect(syntax.status == 0, "\(shell) -n: \(syntax.stderr)")
        }
        func complete(_ line: String) async throws -> [String] {
            let result = try await runTool(
                "/usr/bin/fish", ["--no-config", "-c", "source \(folder)/spconnect.fish; complete -C '\(line)'"],
                environment: ["HOME": folder])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        }
        #expect(try await complete("spconnect it").sorted() == ["item", "items"])
        #expect(try await complete("spconnect items -o ").sorted() == ["csv", "json", "ndjson", "table"])
        #expect(try await complete("spconnect items --fi") == ["--filter"])
    }

    @Test func theManPageHasEveryCommand() async throws {
        let page = try await runSpconnect(["man"], environment: try isolated())
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix(".TH SPCONNECT 1 "))
        for name in try await commandNames() {
            // roff writes a hyphen as `\-` (`content\-types`).
            let escaped = name.replacingOccurrences(of: "-", with: "\\-")
            #expect(page.stdout.contains(".SS \"spconnect \(escaped)"), "no section for \(name)")
        }
        #expect(page.stdout.contains("spconnect items Tasks \\-\\-all \\-o ndjson > tasks.ndjson"))
    }

    @Test("the man page renders cleanly with groff", .enabled(if: installed("groff"), "groff is not installed"))
    func theManPageRendersCleanly() async throws {
        let page = try await runSpconnect(["man"], environment: try isolated())
        let folder = try temporaryDirectory("man")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/spconnect.1"
        try page.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let rendered = try await runTool("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-P-cbou", file])
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "groff warnings: \(rendered.stderr)")
        #expect(rendered.stdout.contains("EXIT STATUS"))
    }

    /// The visible commands, as the overview lists them.
    private func commandNames() async throws -> [String] {
        let overview = try await runSpconnect(["--help"], environment: try isolated())
        let section = overview.stdout.components(separatedBy: "commands:\n").last ?? ""
        return section.split(separator: "\n").prefix { $0.hasPrefix("  ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }
}

/// Runs a tool other than spconnect (bash, groff, fish, the install script) with `environment` plus PATH and no
/// standard input. Through posix_spawn (`spawnToExit`), not Foundation's Process, whose run() crashes now and then in
/// this toolchain when the test process holds many descriptors; `/bin/sh` sends the tool's standard error to a file.
func runTool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
    let scratch = try temporaryDirectory("tool")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    var env = environment
    env["PATH"] = env["PATH"] ?? "/usr/bin:/bin"
    let status = await spawnToExit(
        "/bin/sh", ["-c", "errors=$1; shift; exec \"$@\" 2>\"$errors\"", "sh", scratch + "/err", path] + arguments,
        environment: env, standardOutput: scratch + "/out")
    let out = FileManager.default.contents(atPath: scratch + "/out") ?? Data()
    let err = FileManager.default.contents(atPath: scratch + "/err") ?? Data()
    return RunResult(
        status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
        stdoutBytes: out)
}

/// What bash's completion offers for `words` (the last is the word being completed), with the spconnect completion
/// script at `script` sourced and registered for `spconnect`; a run of bash that fails is a test issue.
func bashCompletions(
    script: String, _ words: [String], sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String] {
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let result = try await runTool(
        "/bin/bash",
        [
            "-c",
            "source '\(script)' && complete -p spconnect >/dev/null && COMP_WORDS=(\(quoted)) && "
                + "COMP_CWORD=\(words.count - 1) && _spconnect && printf '%s\\n' \"${COMPREPLY[@]}\"",
        ])
    #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    return result.stdout.split(separator: "\n").map(String.init)
}
