import CommandLineKit
import Testing

/// Values typed at declaration: the parser refuses what a declaration refuses, before a command runs, with the
/// option named; the shared pieces (did-you-mean, config files, completions) work for any program.
@Suite struct ParsedArgumentsTests {
    static let specs: [OptionSpec] = [
        .integer(.count, "N", in: 1...32, "how many"),
        .url(.site, "URL", "the site"),
        .value(.format, "FORMAT", values: .choices(["csv", "json"]), "the format"),
        .path(.to, "DIR", "where"),
        .flag(.quiet, short: "q", "say less"),
        .repeatable(.header, "K: V", "a header"),
    ]

    static func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(words, specs: specs, program: "tool", command: "run")
    }

    @Test func typedValuesAreReadAsDeclared() throws {
        let given = try Self.parse([
            "--count=8", "--site", "https://contoso.sharepoint.com/sites/a", "--format", "CSV", "-q", "--header",
            "A: 1", "--header", "B: 2", "word", "--", "--not-an-option",
        ])
        #expect(given.integer(.count) == 8)
        #expect(given.url(.site)?.host == "contoso.sharepoint.com")
        #expect(given.value(.format) == "CSV" && given.has(.quiet))
        #expect(given.all(.header) == ["A: 1", "B: 2"])
        #expect(given.positionals == ["word", "--not-an-option"])
    }

    @Test(arguments: [
        (["--count", "0"], "wants a whole number from 1 to 32"),
        (["--count", "many"], "wants a whole number from 1 to 32"),
        (["--site", "contoso.sharepoint.com"], "wants an absolute http or https URL"),
        (["--site", "ftp://x/y"], "wants an absolute http or https URL"),
        (["--format", "xml"], "use csv or json"),
        (["--cuont", "3"], "Did you mean '--count'?"),
        (["--count"], "needs a value"),
        (["--quiet=yes"], "takes no value"),
        (["--count", "2", "--count", "3"], "given twice"),
        (["-x"], "unknown option '-x' for 'tool run'"),
    ])
    func refusedValuesNameTheOption(words: [String], reason: String) {
        do {
            _ = try Self.parse(words)
            Issue.record("\(words) was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(words): \(error.description)")
        }
    }

    @Test func aConfigFileNamesTheLineOfEachProblem() throws {
        let schema = ConfigFile.Schema(keys: ["output", "timeout"]) { key, value in
            key == "timeout" && Double(value) == nil ? "timeout '\(value)' is not a number" : nil
        }
        let good = try ConfigFile.parse("# defaults\noutput = csv\n\ntimeout=30\n", path: "/c", schema: schema)
        #expect(good.values == ["output": "csv", "timeout": "30"])
        for (text, reason) in [
            ("outptu = csv", "line 1, cannot be used: unknown key 'outptu'. Did you mean 'output'?"),
            ("output = csv\noutput = json", "line 2, cannot be used: 'output' is already set on line 1"),
            ("timeout = soon", "timeout 'soon' is not a number"), ("output", "expected 'key = value'"),
        ] {
            do {
                _ = try ConfigFile.parse(text, path: "/c", schema: schema)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }

    @Test func completionsAndHelpComeFromTheDeclarations() {
        let command = CommandDescription(
            name: "run", summary: "Run it.", synopsis: "WORD [--count N]", options: Self.specs, positionals: .path)
        let help = command.help(program: "tool")
        #expect(help.hasPrefix("usage: tool run WORD [--count N]"))
        #expect(help.contains("--count N") && help.contains("-q, --quiet"))
        let completion = ShellCompletion(
            program: "my-tool", commands: [command],
            profiles: ShellCompletion.ProfileNames(folder: "my-tool/sessions", suffix: ".session"))
        let bash = completion.script(for: .bash)
        #expect(bash.contains("complete -F _my_tool my-tool"))
        #expect(bash.contains("COMPREPLY=( $(compgen -W \"csv json\" -- \"$cur\") )"))
        #expect(
            completion.script(for: .fish).contains(
                "complete -c my-tool -n '__fish_seen_subcommand_from run' -l to -r -F"))
    }
}

extension OptionKey {
    static let count = OptionKey(named: "count")
    static let site = OptionKey(named: "site")
    static let format = OptionKey(named: "format")
    static let to = OptionKey(named: "to")
    static let quiet = OptionKey(named: "quiet")
    static let header = OptionKey(named: "header")
}
