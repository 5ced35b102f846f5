import Foundation
import TestSupport
import Testing

/// The CLI declares itself once (docs/decisions/0014-one-cli-declaration.md): these tests read that declaration
/// (`spconnect declarations`, the command table as JSON) and check that docs/cli.md, the synopses, the completion
/// scripts and the man page say the same: every command, option, placeholder, value set, exit code and
/// environment variable, and no option the CLI does not have.
@Suite struct CLIDeclarationTests {
    /// One declared option, as `spconnect declarations` prints it.
    struct Option: Hashable {
        let name: String
        let short: String?
        let placeholder: String?
        let choices: [String]
        let values: String
    }

    /// One declared command.
    struct Declared {
        let name: String
        let synopsis: String
        let hidden: Bool
        let options: [Option]
    }

    /// The declaration of the built binary: commands, shared option names, exit codes, environment variables.
    struct Declaration {
        let commands: [Declared]
        let shared: Set<String>
        let exitCodes: [Int]
        let environment: [String]
    }

    /// Options of other programs that docs/cli.md names in its recipes (curl, rclone, jq, systemd, ...).
    static let foreignOptions: Set<String> = [
        "fitler",  // the did-you-mean example's typo
        "name",  // "`--name value` or `--name=value`"
        "prefix", "uninstall",  // scripts/install.sh
        "one",  // scripts/many-sites.sh
        "now",  // systemctl enable --now
        "totp",  // oathtool --totp
    ]

    static func isolated() -> [String: String] {
        let home = NSTemporaryDirectory() + "spc-declaration-absent-" + UUID().uuidString
        return ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config"]
    }

    static func declaration() async throws -> Declaration {
        let result = try await runSpconnect(["declarations"], environment: isolated())
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let commands = try #require(root["commands"] as? [[String: Any]]).map { command in
            Declared(
                name: command["name"] as? String ?? "", synopsis: command["synopsis"] as? String ?? "",
                hidden: command["hidden"] as? Bool ?? false,
                options: (command["options"] as? [[String: Any]] ?? []).map { option in
                    Option(
                        name: option["name"] as? String ?? "", short: option["short"] as? String,
                        placeholder: option["placeholder"] as? String,
                        choices: option["values"] as? [String] ?? [],
                        values: option["values"] as? String ?? "choices")
                })
        }
        return Declaration(
            commands: commands, shared: Set(root["sharedOptions"] as? [String] ?? []),
            exitCodes: (root["exitCodes"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? Int },
            environment: root["environment"] as? [String] ?? [])
    }

    static let docs: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/cli.md"), encoding: .utf8)) ?? ""
    }()

    /// Every `--name` docs/cli.md writes.
    static func documentedOptionNames() throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: "(?<![A-Za-z0-9-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
        let range = NSRange(docs.startIndex..., in: docs)
        return Set(
            pattern.matches(in: docs, range: range).compactMap { match in
                Range(match.range(at: 1), in: docs).map { String(docs[$0]) }
            })
    }

    /// Whether `text` holds `--name` (or its short form) not followed by more of an option name.
    static func mentions(_ text: String, option: Option) -> Bool {
        mentions(text, option: option.name) || option.short.map { mentions(text, short: $0) } == true
    }

    /// Whether `text` holds the short option `-letter` on its own (`-H 'K: V'`, `[-R]`).
    static func mentions(_ text: String, short letter: String) -> Bool {
        text.contains(" -\(letter) ") || text.contains("[-\(letter)]") || text.contains("[-\(letter) ")
            || text.contains("`-\(letter)`")
            || text.contains("`-\(letter) ") || text.hasPrefix("-\(letter) ")
    }

    /// Whether `text` holds `--name` not followed by more of an option name (`--to` is not in `--top`).
    static func mentions(_ text: String, option name: String) -> Bool {
        var rest = text[...]
        while let found = rest.range(of: "--" + name) {
            let after = rest[found.upperBound...].first
            if after.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    @Test func theDeclarationListsTheCommandsAndTheirValueSets() async throws {
        let declaration = try await Self.declaration()
        let login = try #require(declaration.commands.first { $0.name == "login" })
        let mfa = try #require(login.options.first { $0.name == "mfa-method" })
        #expect(mfa.choices == ["push", "totp", "sms", "voice"])
        #expect(login.options.first { $0.name == "cacert" }?.values == "path")
        #expect(login.options.first { $0.name == "user" }?.values == "text")
        #expect(login.options.first { $0.name == "profile" }?.values == "profile")
        let items = try #require(declaration.commands.first { $0.name == "items" })
        #expect(
            Set(items.options.first { $0.name == "odata" }?.choices ?? []) == [
                "nometadata", "minimalmetadata", "verbose",
            ])
        #expect(declaration.exitCodes == Array(0...15))
        #expect(declaration.environment.contains("SPCONNECT_PASSWORD_COMMAND"))
    }

    /// The Registry plugin lists only `let NAME = Command(` declarations: a command written any other way under
    /// `Apps/spconnect` would be missing from spconnect. Every `Command(name: "…"` in the app's sources is declared.
    @Test func everyCommandWrittenInTheAppIsRegistered() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Apps/spconnect")
        let pattern = try NSRegularExpression(pattern: #"Command\(\s*name:\s*"([a-z-]+)""#)
        var written: Set<String> = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { written.insert(String(text[range])) }
            }
        }
        #expect(written.count > 40, "the app's commands were not found under \(root.path)")
        let declared = Set(try await Self.declaration().commands.map(\.name))
        #expect(written.subtracting(declared).isEmpty, "written but not registered: \(written.subtracting(declared))")
    }

    @Test func everyCommandHasASectionInTheDocs() async throws {
        #expect(!Self.docs.isEmpty, "docs/cli.md not found")
        let headings = Self.docs.split(separator: "\n").filter { $0.hasPrefix("#") }
        for command in try await Self.declaration().commands where !command.hidden {
            #expect(
                headings.contains {
                    $0.contains("`spconnect \(command.name)`") || $0.contains("`spconnect \(command.name) ")
                },
                "docs/cli.md has no heading for 'spconnect \(command.name)'")
        }
    }

    @Test func everyDeclaredOptionIsDocumentedWithItsPlaceholderAndValues() async throws {
        let lines = Self.docs.split(separator: "\n").map(String.init)
        var seen: Set<Option> = []
        for command in try await Self.declaration().commands where !command.hidden {
            for option in command.options where seen.insert(option).inserted {
                let mentioning = lines.filter { Self.mentions($0, option: option) }
                #expect(!mentioning.isEmpty, "docs/cli.md never names --\(option.name) (\(command.name))")
                if let placeholder = option.placeholder {
                    // `--format FORMAT`, or for a fixed list its values: `--format csv|ndjson`.
                    var spellings = ["--\(option.name) \(placeholder)", "--\(option.name)=\(placeholder)"]
                    if !option.choices.isEmpty {
                        spellings.append("--\(option.name) " + option.choices.joined(separator: "|"))
                    }
                    if let short = option.short { spellings.append("-\(short) \(placeholder)") }
                    #expect(
                        mentioning.contains { line in spellings.contains { line.contains($0) } },
                        "docs/cli.md never writes --\(option.name) \(placeholder) (\(command.name))")
                }
                for value in option.choices {
                    #expect(
                        mentioning.contains { $0.contains(value) },
                        "docs/cli.md does not name --\(option.name)'s value '\(value)' where it names the option")
                }
            }
        }
    }

    /// The lines of docs/cli.md's sections about `spconnect NAME` (each `###` heading naming it, to the next heading).
    static func sections(of name: String) -> [String] {
        var lines: [String] = []
        var inside = false
        for line in docs.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") || line.hasPrefix("### ") {
                inside =
                    line.hasPrefix("### ")
                    && (line.contains("`spconnect \(name) ") || line.contains("`spconnect \(name)`"))
            }
            if inside { lines.append(line) }
        }
        return lines
    }

    @Test func eachCommandsSectionNamesItsOwnOptions() async throws {
        let declaration = try await Self.declaration()
        for command in declaration.commands where !command.hidden {
            let section = Self.sections(of: command.name).joined(separator: "\n")
            #expect(!section.isEmpty, "docs/cli.md has no section for 'spconnect \(command.name)'")
            for option in command.options where !declaration.shared.contains(option.name) {
                #expect(
                    Self.mentions(section, option: option),
                    "docs/cli.md's section on 'spconnect \(command.name)' does not name --\(option.name)")
            }
        }
    }

    @Test func theDocsNameNoOptionTheCLIDoesNotDeclare() async throws {
        let declared = Set(
            try await Self.declaration().commands.flatMap { $0.options.map(\.name) } + ["help", "version"])
        let unknown = try Self.documentedOptionNames().subtracting(declared).subtracting(Self.foreignOptions)
        #expect(unknown.isEmpty, "docs/cli.md names options spconnect does not have: \(unknown.sorted())")
    }

    @Test func everySynopsisNamesTheCommandsOwnOptions() async throws {
        let declaration = try await Self.declaration()
        for command in declaration.commands where !command.hidden && !command.synopsis.contains("[options]") {
            for option in command.options where !declaration.shared.contains(option.name) {
                #expect(
                    Self.mentions(command.synopsis, option: option),
                    "'spconnect \(command.name) \(command.synopsis)' leaves out --\(option.name)")
            }
        }
    }

    @Test func exitCodesAndEnvironmentAgreeWithTheDocsAndTheManPage() async throws {
        let declaration = try await Self.declaration()
        let table = Self.docs.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("| ") else { return nil }
            return Int(line.dropFirst(2).prefix { $0.isNumber })
        }
        #expect(table == declaration.exitCodes, "docs/cli.md's exit code table: \(table)")
        let man = try await runSpconnect(["man"], environment: Self.isolated())
        #expect(man.status == 0, "\(man.stderr)")
        for code in declaration.exitCodes {
            #expect(man.stdout.contains(".TP\n\\fB\(code)\\fR\n"), "the man page lacks exit status \(code)")
        }
        for name in declaration.environment {
            #expect(Self.docs.contains(name), "docs/cli.md does not name \(name)")
            #expect(man.stdout.contains("\\fB" + name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(name)")
        }
    }

    @Test func completionOffersTheDeclaredValueSets() async throws {
        let script = try await runSpconnect(["completion", "bash"], environment: Self.isolated())
        #expect(script.status == 0, "\(script.stderr)")
        let file = NSTemporaryDirectory() + "spc-declaration-" + UUID().uuidString + ".bash"
        try script.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        func complete(_ words: [String]) async throws -> [String] { try await bashCompletions(script: file, words) }
        #expect(try await complete(["spconnect", "login", "--mfa-method", ""]) == ["push", "totp", "sms", "voice"])
        #expect(
            Set(try await complete(["spconnect", "items", "--odata", ""])) == [
                "nometadata", "minimalmetadata", "verbose",
            ])
        #expect(try await complete(["spconnect", "cookies", "--format", ""]) == ["header", "netscape", "json"])
        #expect(try await complete(["spconnect", "add", "--format", ""]) == ["csv", "ndjson"])
        // Positional words complete as files only where the command declares them paths.
        let folder = NSTemporaryDirectory() + "spc-declaration-files-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/report.pdf", contents: Data())
        #expect(try await complete(["spconnect", "upload", folder + "/rep"]) == [folder + "/report.pdf"])
        #expect(try await complete(["spconnect", "inspect", folder + "/rep"]) == [folder + "/report.pdf"])
        #expect(try await complete(["spconnect", "items", folder + "/rep"]) == [])
        let zsh = try await runSpconnect(["completion", "zsh"], environment: Self.isolated())
        #expect(zsh.stdout.contains(":METHOD:(push totp sms voice)"), "zsh: --mfa-method")
        #expect(zsh.stdout.contains("--cacert[trust the CA certificates in FILE]:FILE:_files"), "zsh: --cacert")
        let fish = try await runSpconnect(["completion", "fish"], environment: Self.isolated())
        #expect(fish.stdout.contains("-l mfa-method -x -a 'push totp sms voice'"), "fish: --mfa-method")
    }

    @Test func helpShowsTheDefaultsTheConfigFileAndTheEnvironmentResolve() async throws {
        let environment = Self.isolated()
        let folder = try #require(environment["XDG_CONFIG_HOME"]) + "/spconnect"
        let home = try #require(environment["HOME"])
        defer { try? FileManager.default.removeItem(atPath: home) }
        func profileLine(_ extra: [String: String] = [:]) async throws -> String {
            let help = try await runSpconnect(["items", "--help"], environment: environment.merging(extra) { $1 })
            #expect(help.status == 0, "\(help.stderr)")
            return help.stdout.split(separator: "\n").first { $0.contains("--profile NAME") }.map(String.init) ?? ""
        }
        #expect(try await profileLine().hasSuffix("session profile (default: 'default')"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "profile = work\ntimeout = 30\n".write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        #expect(try await profileLine().hasSuffix("session profile (default: 'work', from the config file)"))
        #expect(
            try await profileLine(["SPCONNECT_PROFILE": "night"])
                .hasSuffix("session profile (default: 'night', from SPCONNECT_PROFILE)"))
        let help = try await runSpconnect(["items", "--help"], environment: environment)
        #expect(help.stdout.contains("(here: '30', from the config file)"), "\(help.stdout)")
        let man = try await runSpconnect(["man"], environment: environment)
        #expect(man.stdout.contains("session profile (default: 'default')"), "the man page shows the declared default")
    }

    @Test func aValueOutsideTheDeclaredSetIsAUsageErrorBeforeAnySession() async throws {
        // No session exists: a refused value is exit 2 (not 11), naming the values there are.
        let odata = try await runSpconnect(["items", "Tasks", "--odata", "fancy"], environment: Self.isolated())
        #expect(odata.status == 2, "\(odata.stderr)")
        #expect(odata.stderr.contains("unknown --odata 'fancy'; use verbose, minimalmetadata or nometadata"))
        let cookies = try await runSpconnect(["cookies", "--format", "xml"], environment: Self.isolated())
        #expect(cookies.status == 2, "\(cookies.stderr)")
        #expect(cookies.stderr.contains("use header, netscape or json"), "\(cookies.stderr)")
        let mfa = try await runSpconnect(
            ["login", "--site", "https://contoso.example/sites/a", "--user", "a", "--mfa-method", "fax"],
            environment: Self.isolated())
        #expect(mfa.status == 2, "\(mfa.stderr)")
        #expect(mfa.stderr.contains("unknown --mfa-method 'fax'; use push, totp, sms or voice"), "\(mfa.stderr)")
        let upper = try await runSpconnect(["items", "Tasks", "--odata", "VERBOSE"], environment: Self.isolated())
        #expect(upper.status == 11, "a declared value in another case is accepted: \(upper.stderr)")
    }
}
