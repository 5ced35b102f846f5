/// One option a command accepts.
struct OptionSpec: Sendable {
    enum Kind: Sendable {
        /// `--quiet`: present or not.
        case flag
        /// `--top 10` or `--top=10`.
        case value(placeholder: String)
        /// `-H 'K: V'` given any number of times.
        case repeatable(placeholder: String)
    }
    /// What an option's value is: declared once here, read by completion, the man page and the docs' drift test.
    enum Values: Sendable, Equatable {
        /// Any text (a URL, a name, a number): completion offers nothing.
        case text
        /// A local file or folder: completion offers file names.
        case path
        /// The name of a saved profile: completion offers the profiles in the sessions folder.
        case profile
        /// One of a fixed list, taken from a `CaseIterable` enum (``OptionSpec/choice(_:_:of:short:_:)``).
        case choices([String])
    }
    /// The option's typed name (``OptionKey``).
    let key: OptionKey
    let short: Character?
    let kind: Kind
    let help: String
    /// What the value is; ``Values/text`` for a flag.
    var values: Values = .text

    /// The command's own default, shown in the help when neither the environment nor the config file sets one.
    var defaultValue: String?

    /// The name after `--`.
    var name: String { key.name }

    /// This option with `value` as its shown default (`--profile`'s `default`).
    func defaulting(_ value: String) -> OptionSpec {
        var changed = self
        changed.defaultValue = value
        return changed
    }

    /// The help text with the default in force: `resolved` (from the environment or the config file) when there is
    /// one, else the declared ``defaultValue``.
    func described(resolved: ResolvedDefault? = nil) -> String {
        if let resolved {
            let word = defaultValue == nil ? "here" : "default"
            return help + " (\(word): '\(resolved.value)', from \(resolved.source))"
        }
        return defaultValue.map { help + " (default: '\($0)')" } ?? help
    }

    static func flag(_ key: OptionKey, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .flag, help: help)
    }
    static func value(
        _ key: OptionKey, _ placeholder: String, short: Character? = nil, values: Values = .text, _ help: String
    ) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .value(placeholder: placeholder), help: help, values: values)
    }
    static func repeatable(
        _ key: OptionKey, _ placeholder: String, short: Character? = nil, values: Values = .text, _ help: String
    ) -> OptionSpec {
        OptionSpec(key: key, short: short, kind: .repeatable(placeholder: placeholder), help: help, values: values)
    }
    /// An option whose value is one of `Choice`'s cases (their raw values), e.g. `--mfa-method push`.
    static func choice<Choice: CaseIterable & RawRepresentable>(
        _ key: OptionKey, _ placeholder: String, of _: Choice.Type, short: Character? = nil, _ help: String
    ) -> OptionSpec where Choice.RawValue == String {
        .value(key, placeholder, short: short, values: .choices(Choice.allCases.map(\.rawValue)), help)
    }
    /// An option whose value is a local file or folder, e.g. `--cacert FILE`.
    static func path(_ key: OptionKey, _ placeholder: String, short: Character? = nil, _ help: String) -> OptionSpec {
        .value(key, placeholder, short: short, values: .path, help)
    }

    /// The values of a fixed list, or nil when the option has none.
    var choices: [String]? {
        if case .choices(let list) = values { return list }
        return nil
    }

    /// `Choice`'s raw values for a sentence: `push, totp, sms or voice`.
    static func listed<Choice: CaseIterable & RawRepresentable>(_: Choice.Type) -> String
    where Choice.RawValue == String {
        listed(Choice.allCases.map(\.rawValue))
    }

    /// `names` for a sentence: `csv or ndjson`, `a, b or c`.
    static func listed(_ names: [String]) -> String {
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// A usage error: the message says what was wrong and where to look.
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// Arguments after parsing against a command's option specs.
struct ParsedArguments {
    var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` (without the program and command names). `--` ends the options;
    /// `--name=value` and `--name value` are the same; short options take their value from the next word.
    init(_ arguments: [String], specs: [OptionSpec], command: String) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name: String
            var inlineValue: String?
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
            } else {
                let letter = word.dropFirst().first
                guard word.count == 2, let spec = specs.first(where: { $0.short == letter }) else {
                    let long = specs.first { "-" + $0.name == word }.map { " Did you mean '--\($0.name)'?" } ?? ""
                    throw UsageError(
                        description: "unknown option '\(word)' for 'spconnect \(command)'.\(long) See --help")
                }
                name = spec.name
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let hint = Suggestions.didYouMean(name, in: specs.map(\.name), prefix: "--")
                throw UsageError(
                    description: "unknown option '--\(name)' for 'spconnect \(command)'.\(hint) See --help")
            }
            switch spec.kind {
            case .flag:
                if inlineValue != nil {
                    throw UsageError(description: "option '--\(name)' takes no value")
                }
                flags.insert(name)
            case .value(let placeholder), .repeatable(let placeholder):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError(description: "option '--\(name)' needs a value (\(placeholder))")
                }
                // A value outside the declared set is refused here, before the command opens a session.
                if let choices = spec.choices, !choices.contains(where: { $0.lowercased() == value.lowercased() }) {
                    throw UsageError(description: "unknown --\(name) '\(value)'; use \(OptionSpec.listed(choices))")
                }
                if case .value = spec.kind, values[name] != nil {
                    throw UsageError(description: "option '--\(name)' given twice")
                }
                values[name, default: []].append(value)
            }
        }
    }

    /// Whether the option `key` was given a value on the command line (or by ``setDefault(_:_:)``).
    func isSet(_ key: OptionKey) -> Bool { values[key.name] != nil }

    /// Gives option `name` the value `value` unless one was given: how the environment and the config file
    /// supply defaults that flags override.
    mutating func setDefault(_ key: OptionKey, _ value: String) {
        if values[key.name] == nil { values[key.name] = [value] }
    }

    /// Whether a flag was given.
    func has(_ flag: OptionKey) -> Bool { flags.contains(flag.name) }

    /// The value of a single-valued option.
    func value(_ key: OptionKey) -> String? { values[key.name]?.last }

    /// All values of a repeatable option, in order.
    func all(_ key: OptionKey) -> [String] { values[key.name] ?? [] }

    /// The value of `option` as one of `Choice`'s cases (matched in any case), nil when not given; a value outside
    /// the list is a usage error naming the ones there are.
    func choice<Choice: CaseIterable & RawRepresentable>(_ key: OptionKey, as _: Choice.Type)
        throws(UsageError) -> Choice? where Choice.RawValue == String
    {
        guard let text = value(key) else { return nil }
        guard let chosen = Choice.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw UsageError(description: "unknown --\(key.name) '\(text)'; use \(OptionSpec.listed(Choice.self))")
        }
        return chosen
    }

    /// An integer option, with a usage error when it is not a whole number in range.
    func integer(_ key: OptionKey, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                description:
                    "option '--\(key.name)' wants a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
