import CommandLineKit
import Foundation
import Presentation

/// spconnect's config file, `$XDG_CONFIG_HOME/spconnect/config` (`~/.config/spconnect/config` when unset): defaults
/// for the options of the same name (``ConfigFile``). Flags and environment variables win over it (see
/// ``ArgumentDefaults``). Holds no secret: there is no key for one.
enum SpconnectConfig {
    /// The keys it understands, each the name of an option, but `output-piped`: `output` is the format on a
    /// terminal, `output-piped` the one when standard output is a pipe or a file (so `output = csv` for reading does
    /// not break `| jq`; see ``ArgumentDefaults``).
    static let keys = ["profile", "output", "output-piped", "timeout", "user-agent"]

    static let schema = ConfigFile.Schema(keys: keys, check: check(key:value:))

    /// Where the file is read from.
    static func path(environment: [String: String]) -> String {
        ConfigFile.path(program: "spconnect", environment: environment)
    }

    /// The file at ``path(environment:)``, or nil when there is none.
    static func load(environment: [String: String]) throws(ConfigFileError) -> ConfigFile? {
        try ConfigFile.load(path: path(environment: environment), schema: schema)
    }

    /// Why `value` cannot be the value of `key`, or nil when it can.
    @Sendable private static func check(key: String, value: String) -> String? {
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
