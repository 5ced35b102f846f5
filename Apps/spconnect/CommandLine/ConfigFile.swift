import Foundation
import Presentation

/// The config file, `$XDG_CONFIG_HOME/spconnect/config` (`~/.config/spconnect/config` when unset): defaults for
/// the options of the same name, one `key = value` a line; blank lines and lines starting with `#` are skipped.
/// Flags and environment variables win over it (see ``ArgumentDefaults``). Holds no secret: there is no key for
/// one.
struct ConfigFile: Equatable {
    /// The keys it understands, each the name of an option, but `output-piped`: `output` is the format on a
    /// terminal, `output-piped` the one when standard output is a pipe or a file (so `output = csv` for reading does
    /// not break `| jq`; see ``ArgumentDefaults``).
    static let keys = ["profile", "output", "output-piped", "timeout", "user-agent"]

    let path: String
    /// The values by key, as written (trimmed).
    let values: [String: String]

    /// Where the file is read from.
    static func path(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/spconnect/config"
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/spconnect/config"
    }

    /// The file at ``path(environment:)``, or nil when there is none.
    static func load(environment: [String: String]) throws(ConfigFileError) -> ConfigFile? {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(path: path, line: nil, problem: "it cannot be read (check its permissions)")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Reads `text`; every problem names `path` and the line.
    static func parse(_ text: String, path: String) throws(ConfigFileError) -> ConfigFile {
        var values: [String: String] = [:]
        var lineOf: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigFileError(path: path, line: number, problem: "expected 'key = value', got '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                let hint = Suggestions.didYouMean(key, in: keys)
                throw ConfigFileError(
                    path: path, line: number,
                    problem: "unknown key '\(key)'.\(hint) The keys are \(keys.joined(separator: ", "))")
            }
            if let first = lineOf[key] {
                throw ConfigFileError(path: path, line: number, problem: "'\(key)' is already set on line \(first)")
            }
            if let problem = check(key: key, value: value) {
                throw ConfigFileError(path: path, line: number, problem: problem)
            }
            values[key] = value
            lineOf[key] = number
        }
        return ConfigFile(path: path, values: values)
    }

    /// Why `value` cannot be the value of `key`, or nil when it can.
    private static func check(key: String, value: String) -> String? {
        if value.isEmpty { return "'\(key)' has no value" }
        switch key {
        case "profile":
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
            guard value.first != ".", value.allSatisfy({ allowed.contains($0) }) else {
                return "profile '\(value)' may only use letters, digits, '.', '-' and '_'"
            }
        case "output", "output-piped":
            guard OutputFormat(rawValue: value.lowercased()) != nil else {
                return "output '\(value)' is not a format; use table, json, ndjson or csv"
            }
        case "timeout":
            guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
                return "timeout '\(value)' is not a number of seconds greater than 0"
            }
        default:
            guard !value.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                return "'\(key)' contains a control character"
            }
        }
        return nil
    }
}

/// A config file that cannot be used: which file, which line, what is wrong (exit 2).
struct ConfigFileError: Error, CustomStringConvertible {
    let path: String
    let line: Int?
    let problem: String

    var description: String {
        "the config file \(path)\(line.map { ", line \($0)," } ?? "") cannot be used: \(problem). Fix or remove that "
            + "line (the keys are \(ConfigFile.keys.joined(separator: ", ")); see docs/cli.md)."
    }
}
