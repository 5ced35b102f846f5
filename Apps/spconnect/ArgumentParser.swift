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
    let name: String
    let short: Character?
    let kind: Kind
    let help: String

    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, help: help)
    }
    static func value(_ name: String, _ placeholder: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .value(placeholder: placeholder), help: help)
    }
    static func repeatable(_ name: String, _ placeholder: String, short: Character? = nil, _ help: String)
        -> OptionSpec
    {
        OptionSpec(name: name, short: short, kind: .repeatable(placeholder: placeholder), help: help)
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
                if case .value = spec.kind, values[name] != nil {
                    throw UsageError(description: "option '--\(name)' given twice")
                }
                values[name, default: []].append(value)
            }
        }
    }

    /// Whether the option `name` was given a value on the command line (or by ``setDefault(_:_:)``).
    func isSet(_ name: String) -> Bool { values[name] != nil }

    /// Gives option `name` the value `value` unless one was given: how the environment and the config file
    /// supply defaults that flags override.
    mutating func setDefault(_ name: String, _ value: String) {
        if values[name] == nil { values[name] = [value] }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of a single-valued option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option, with a usage error when it is not a whole number in range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                description: "option '--\(name)' wants a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
