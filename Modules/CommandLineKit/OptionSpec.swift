public import Foundation

/// One option a command accepts: its key, short form, kind, help and what its value is. A plain value.
public struct OptionSpec: Sendable {
    /// Whether the option takes a value, and how often.
    public enum Kind: Sendable {
        /// `--quiet`: present or not.
        case flag
        /// `--top 10` or `--top=10`.
        case value(placeholder: String)
        /// `-H 'K: V'` given any number of times.
        case repeatable(placeholder: String)
    }
    /// What an option's value is: declared once here, read by completion, the man page and the docs' drift test.
    public enum Values: Sendable, Equatable {
        /// Any text (a URL, a name, a number): completion offers nothing.
        case text
        /// A local file or folder: completion offers file names.
        case path
        /// The name of a saved profile: completion offers the profiles in the sessions folder.
        case profile
        /// One of a fixed list, taken from a `CaseIterable` enum (``OptionSpec/choice(_:_:of:short:_:)``).
        case choices([String])
        /// A whole number in a range, refused at parsing otherwise (``ParsedArguments/integer(_:)``).
        case integer(ClosedRange<Int>)
        /// An absolute `http` or `https` URL, refused at parsing otherwise (``ParsedArguments/url(_:)``).
        case url
    }
    /// The option's typed name (``OptionKey``).
    public let key: OptionKey
    /// The one-letter form (`-o`), if any.
    public let short: Character?
    public let kind: Kind
    /// One line for `--help` and the man page.
    public let help: String
    /// What the value is; ``Values/text`` for a flag.
    public var values: Values = .text

    /// The command's own default, shown in the help when neither the environment nor the config file sets one.
    public var defaultValue: String?

    /// The name after `--`.
    public var name: String { key.name }

    /// This option with `value` as its shown default (`--profile`'s `default`).
    public func defaulting(_ value: String) -> OptionSpec {
        var changed = self
        changed.defaultValue = value
        return changed
    }

    /// The help text with the default in force: `resolved` (from the environment or the config file) when there is
    /// one, else the declared ``defaultValue``.
    public func described(resolved: ResolvedDefault? = nil) -> String {
        if let resolved {
            let word = defaultValue == nil ? "here" : "default"
            return help + " (\(word): '\(resolved.value)', from \(resolved.source))"
        }
        return defaultValue.map { help + " (default: '\($0)')" } ?? help
    }

    public static func flag(_ key: OptionKey, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .flag, help: help)
    }
    public static func value(
        _ key: OptionKey, _ placeholder: String, short: Character? = nil, values: Values = .text, _ help: String
    ) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .value(placeholder: placeholder), help: help, values: values)
    }
    public static func repeatable(
        _ key: OptionKey, _ placeholder: String, short: Character? = nil, values: Values = .text, _ help: String
    ) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .repeatable(placeholder: placeholder), help: help, values: values)
    }
    /// An option whose value is one of `Choice`'s cases (their raw values), e.g. `--mfa-method push`.
    public static func choice<Choice: CaseIterable & RawRepresentable>(
        _ key: OptionKey, _ placeholder: String, of _: Choice.Type, short: Character? = nil, _ help: String
    ) -> OptionSpec where Choice.RawValue == String {
        .value(key, placeholder, short: short, values: .choices(Choice.allCases.map(\.rawValue)), help)
    }
    /// An option whose value is a local file or folder, e.g. `--cacert FILE`.
    public static func path(_ key: OptionKey, _ placeholder: String, short: Character? = nil, _ help: String)
        -> OptionSpec
    {
        .value(key, placeholder, short: short, values: .path, help)
    }

    /// The values of a fixed list, or nil when the option has none.
    public var choices: [String]? {
        if case .choices(let list) = values { return list }
        return nil
    }

    /// `Choice`'s raw values for a sentence: `push, totp, sms or voice`.
    public static func listed<Choice: CaseIterable & RawRepresentable>(_: Choice.Type) -> String
    where Choice.RawValue == String {
        listed(Choice.allCases.map(\.rawValue))
    }

    /// `names` for a sentence: `csv or ndjson`, `a, b or c`.
    public static func listed(_ names: [String]) -> String {
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// An option whose value is a whole number in `range` (checked when the command line is read).
    public static func integer(
        _ key: OptionKey, _ placeholder: String, in range: ClosedRange<Int>, short: Character? = nil, _ help: String
    ) -> OptionSpec {
        .value(key, placeholder, short: short, values: .integer(range), help)
    }

    /// An option whose value is an absolute `http` or `https` URL (checked when the command line is read).
    public static func url(_ key: OptionKey, _ placeholder: String, short: Character? = nil, _ help: String)
        -> OptionSpec
    {
        .value(key, placeholder, short: short, values: .url, help)
    }

    /// How the help shows the option: `-o, --output FORMAT`.
    public var label: String {
        var label = "--\(name)"
        switch kind {
        case .flag: break
        case .value(let placeholder), .repeatable(let placeholder): label += " \(placeholder)"
        }
        if let short { label = "-\(short), " + label }
        return label
    }

    /// Whether the option takes a value.
    public var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// Why `value` cannot be this option's value, nil when it can: outside the declared choices, not a whole number
    /// in the range, not an absolute web URL.
    func refusal(of value: String) -> String? {
        switch values {
        case .choices(let list) where !list.contains(where: { $0.lowercased() == value.lowercased() }):
            return "unknown --\(name) '\(value)'; use \(OptionSpec.listed(list))"
        case .integer(let range) where Int(value).map(range.contains) != true:
            return "option '--\(name)' wants a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .url:
            let lower = value.lowercased()
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), URL(string: value)?.host != nil else {
                return "option '--\(name)' wants an absolute http or https URL, not '\(value)'"
            }
            return nil
        default:
            return nil
        }
    }
}

/// A default in force for an option, and where it comes from (`SPCONNECT_PROFILE`, `the config file`).
public struct ResolvedDefault: Equatable, Sendable {
    public let value: String
    public let source: String

    /// A default of `value`, from `source`.
    public init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}
