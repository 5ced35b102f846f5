public import Foundation

/// A program's config file: `key = value` lines (blank lines and lines starting with `#` skipped) setting defaults
/// for the options of the same name. Flags and environment variables win over it (the program decides how). Every
/// problem names the file and the line. A plain value.
public struct ConfigFile: Equatable, Sendable {
    /// Where it was read from.
    public let path: String
    /// The values by key, as written (trimmed).
    public let values: [String: String]

    /// The keys a program's config file understands, and why a value cannot be a key's (nil when it can).
    public struct Schema: Sendable {
        public let keys: [String]
        public let check: @Sendable (_ key: String, _ value: String) -> String?

        /// A schema of `keys`, each value checked by `check`.
        public init(keys: [String], check: @escaping @Sendable (_ key: String, _ value: String) -> String?) {
            self.keys = keys
            self.check = check
        }
    }

    /// `$XDG_CONFIG_HOME/PROGRAM/config`, or `~/.config/PROGRAM/config` when that is unset or relative.
    public static func path(program: String, environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/\(program)/config"
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/\(program)/config"
    }

    /// The file at `path`, or nil when there is none.
    public static func load(path: String, schema: Schema) throws(ConfigFileError) -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(
                path: path, line: nil, problem: "it cannot be read (check its permissions)", keys: schema.keys)
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path, schema: schema)
    }

    /// Reads `text`; every problem names `path` and the line.
    public static func parse(_ text: String, path: String, schema: Schema) throws(ConfigFileError) -> ConfigFile {
        var values: [String: String] = [:]
        var lineOf: [String: Int] = [:]
        func problem(_ line: Int, _ text: String) -> ConfigFileError {
            ConfigFileError(path: path, line: line, problem: text, keys: schema.keys)
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw problem(number, "expected 'key = value', got '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard schema.keys.contains(key) else {
                let hint = Suggestions.didYouMean(key, in: schema.keys)
                throw problem(
                    number, "unknown key '\(key)'.\(hint) The keys are \(schema.keys.joined(separator: ", "))")
            }
            if let first = lineOf[key] { throw problem(number, "'\(key)' is already set on line \(first)") }
            if value.isEmpty { throw problem(number, "'\(key)' has no value") }
            if let refusal = schema.check(key, value) { throw problem(number, refusal) }
            values[key] = value
            lineOf[key] = number
        }
        return ConfigFile(path: path, values: values)
    }
}

/// A config file that cannot be used: which file, which line, what is wrong.
public struct ConfigFileError: Error, CustomStringConvertible {
    public let path: String
    public let line: Int?
    public let problem: String
    /// The keys the file may set, named in the message.
    public let keys: [String]

    public var description: String {
        "the config file \(path)\(line.map { ", line \($0)," } ?? "") cannot be used: \(problem). Fix or remove that "
            + "line (the keys are \(keys.joined(separator: ", ")); see docs/cli.md)."
    }
}
