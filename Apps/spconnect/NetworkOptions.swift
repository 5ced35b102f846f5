import Transport

/// `--verbose` and `--retries`: options of every command that talks to a server (see ``Command/talksToServer``).
enum NetworkOptions {
    static let verbose = OptionSpec.flag(
        "verbose", short: "v", "show each request, its answer and each retry on standard error (secrets redacted)")
    static let retries = OptionSpec.value(
        "retries", "N",
        "retry a throttled (429/503) or unreachable request up to N times (0-20; default 5 for reads, 4 for writes)")
    static let options = [verbose, retries]

    /// The `--retries` given, checked; nil when not given.
    static func retryCount(_ arguments: ParsedArguments) throws(UsageError) -> Int? {
        try arguments.integer(retries.name, in: 0...20)
    }

    /// `policy` with the attempts `--retries` asks for (the first attempt plus N retries), or as it is.
    static func retryPolicy(_ policy: RetryPolicy, _ arguments: ParsedArguments) -> RetryPolicy {
        guard let count = try? retryCount(arguments) else { return policy }
        var changed = policy
        changed.maxAttempts = count + 1
        return changed
    }

    /// `configuration` with the retries asked for and, with `--verbose`, a trace printed to standard error.
    static func applied(_ arguments: ParsedArguments, to configuration: HTTPClient.Configuration)
        -> HTTPClient.Configuration
    {
        var changed = configuration
        changed.retry = retryPolicy(configuration.retry, arguments)
        if arguments.has(verbose.name) {
            changed.trace = { record in
                for line in VerboseTrace.lines(record) { printError(line) }
            }
        }
        return changed
    }
}
