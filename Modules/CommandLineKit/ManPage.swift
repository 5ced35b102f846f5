/// A program's manual page in roff (`man -l`), made from its command table: each command's synopsis, summary,
/// options and examples are the ones `--help` prints, so the two never disagree; the rest (what the program is, its
/// exit statuses, environment, files, and any section of its own) is the program's to give. A plain value.
public struct ManualPage: Sendable {
    /// A term and what it means (an exit status, a variable, a file).
    public struct Entry: Sendable {
        public let term: String
        public let meaning: String

        /// An entry.
        public init(_ term: String, _ meaning: String) {
            self.term = term
            self.meaning = meaning
        }
    }

    public var program: String
    public var version: String
    /// The NAME line after `PROGRAM \-`.
    public var tagline: String
    /// The DESCRIPTION paragraph.
    public var description: String
    /// The commands (hidden ones are left out).
    public var commands: [CommandDescription]
    public var exitStatuses: [Entry]
    /// Paragraphs after the exit statuses.
    public var exitNotes: [String] = []
    /// Sections of the program's own after EXIT STATUS, each a title and one paragraph.
    public var sections: [(title: String, text: String)] = []
    public var environment: [Entry] = []
    public var files: [Entry] = []
    /// The SEE ALSO line, as roff.
    public var seeAlso: String = ""

    /// A page for `program`.
    public init(
        program: String, version: String, tagline: String, description: String, commands: [CommandDescription],
        exitStatuses: [Entry]
    ) {
        self.program = program
        self.version = version
        self.tagline = tagline
        self.description = description
        self.commands = commands
        self.exitStatuses = exitStatuses
    }

    /// The page.
    public func render() -> String {
        var lines = [
            ".TH \(program.uppercased()) 1 \"\" \"\(program) \(version)\" \"User Commands\"",
            ".SH NAME",
            "\(program) \\- " + Self.text(tagline),
            ".SH SYNOPSIS",
            ".B \(program)",
            ".I COMMAND",
            "[\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
            Self.text(description),
            ".SH COMMANDS",
        ]
        for command in commands where !command.hidden {
            lines.append(
                ".SS \"\(Self.text("\(program) \(command.name) \(command.synopsis)").replacingOccurrences(of: "\"", with: "\\(dq"))\""
            )
            lines.append(Self.text(command.summary))
            for option in command.options {
                lines.append(".TP")
                lines.append("\\fB" + Self.text(option.label) + "\\fR")
                lines.append(Self.text(option.described()))
            }
            if !command.examples.isEmpty {
                lines += [".PP", "Examples:", ".RS", ".nf"]
                lines += command.examples.map(Self.text)
                lines += [".fi", ".RE"]
            }
        }
        lines.append(".SH \"EXIT STATUS\"")
        for status in exitStatuses { lines += [".TP", "\\fB\(status.term)\\fR", Self.text(status.meaning)] }
        for note in exitNotes { lines += [".PP", Self.text(note)] }
        for section in sections { lines += [".SH \(section.title)", Self.text(section.text)] }
        if !environment.isEmpty {
            lines.append(".SH ENVIRONMENT")
            for variable in environment {
                lines += [".TP", "\\fB" + Self.text(variable.term) + "\\fR", Self.text(variable.meaning)]
            }
        }
        if !files.isEmpty {
            lines.append(".SH FILES")
            for file in files { lines += [".TP", Self.text(file.term), Self.text(file.meaning)] }
        }
        if !seeAlso.isEmpty { lines += [".SH \"SEE ALSO\"", seeAlso] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `line` as roff text: backslashes and hyphens escaped, and a leading `.` or `'` kept from being read as a
    /// request.
    public static func text(_ line: String) -> String {
        let escaped = line.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
