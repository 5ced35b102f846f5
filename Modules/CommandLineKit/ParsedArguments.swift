public import Foundation

/// A usage error: the message says what was wrong and where to look.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// Arguments after parsing against a command's option specs.
public struct ParsedArguments: Sendable {
    /// The words that are not options, in order.
    public var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` (without the program and command names). `--` ends the options;
    /// `--name=value` and `--name value` are the same; short options take their value from the next word.
    /// Reads `arguments` against `specs`; messages name the command as `program command` (`spconnect items`).
    public init(_ arguments: [String], specs: [OptionSpec], program: String, command: String) throws(UsageError) {
        let invocation = command.isEmpty ? program : "\(program) \(command)"
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
                        description: "unknown option '\(word)' for '\(invocation)'.\(long) See --help")
                }
                name = spec.name
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let hint = Suggestions.didYouMean(name, in: specs.map(\.name), prefix: "--")
                throw UsageError(
                    description: "unknown option '--\(name)' for '\(invocation)'.\(hint) See --help")
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
                // A value the declaration refuses is refused here, before the command opens a session.
                if let refusal = spec.refusal(of: value) { throw UsageError(description: refusal) }
                if case .value = spec.kind, values[name] != nil {
                    throw UsageError(description: "option '--\(name)' given twice")
                }
                values[name, default: []].append(value)
            }
        }
    }

    /// Whether the option `key` was given a value on the command line (or by ``setDefault(_:_:)``).
    public func isSet(_ key: OptionKey) -> Bool { values[key.name] != nil }

    /// Gives option `name` the value `value` unless one was given: how the environment and the config file
    /// supply defaults that flags override.
    public mutating func setDefault(_ key: OptionKey, _ value: String) {
        if values[key.name] == nil { values[key.name] = [value] }
    }

    /// Whether a flag was given.
    public func has(_ flag: OptionKey) -> Bool { flags.contains(flag.name) }

    /// The value of a single-valued option.
    public func value(_ key: OptionKey) -> String? { values[key.name]?.last }

    /// All values of a repeatable option, in order.
    public func all(_ key: OptionKey) -> [String] { values[key.name] ?? [] }

    /// The value of `option` as one of `Choice`'s cases (matched in any case), nil when not given; a value outside
    /// the list is a usage error naming the ones there are.
    public func choice<Choice: CaseIterable & RawRepresentable>(_ key: OptionKey, as _: Choice.Type)
        throws(UsageError) -> Choice? where Choice.RawValue == String
    {
        guard let text = value(key) else { return nil }
        guard let chosen = Choice.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw UsageError(description: "unknown --\(key.name) '\(text)'; use \(OptionSpec.listed(Choice.self))")
        }
        return chosen
    }

    /// An integer option, with a usage error when it is not a whole number in range.
    /// The value of an option declared with ``OptionSpec/Values/integer(_:)`` (already checked), nil when not given.
    public func integer(_ key: OptionKey) -> Int? {
        value(key).flatMap { Int($0) }
    }

    /// The value of an option declared with ``OptionSpec/Values/url`` (already checked), nil when not given.
    public func url(_ key: OptionKey) -> URL? {
        value(key).flatMap { URL(string: $0) }
    }

    /// The value of `key` as a whole number in `range`, for an option declared as text.
    public func integer(_ key: OptionKey, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                description:
                    "option '--\(key.name)' wants a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
