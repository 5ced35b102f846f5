import CommandLineKit
import Transport

/// `--verbose` and `--retries`: options of every command that talks to a server (see ``Command/talksToServer``).
enum NetworkOptions {
    static let verbose = OptionSpec.flag(
        .verbose, short: "v", "show each request, its answer and each retry on standard error (secrets redacted)")
    static let retries = OptionSpec.integer(
        .retries, "N", in: 0...20,
        "retry a request that failed on the way up to N times (0-20, default 3): a refused or broken connection, a "
            + "timeout, 429/503 (Retry-After honoured), 502/504; a broken download resumes where it stopped")
    static let options = [verbose, retries]

    /// Retries when `--retries` is not given.
    static let defaultRetries = 3

    /// The `--retries` given, checked; nil when not given.
    static func retryCount(_ arguments: ParsedArguments) throws(UsageError) -> Int? {
        arguments.integer(retries.key)
    }

    /// `policy` with the attempts `--retries` asks for (the first attempt plus N retries, ``defaultRetries`` when
    /// not given), a refused connection included.
    static func retryPolicy(_ policy: RetryPolicy, _ arguments: ParsedArguments) -> RetryPolicy {
        let count = (try? retryCount(arguments)) ?? defaultRetries
        var changed = policy
        changed.maxAttempts = count + 1
        changed.maxConnectAttempts = count + 1
        return changed
    }

    /// `configuration` with the retries asked for and, with `--verbose`, each exchange's lines in curl's style
    /// (``TraceRecord/verboseLines``) on standard error, through ``ErrorOutput``, which also removes the run's
    /// password and cookie values wherever they appear.
    static func applied(_ arguments: ParsedArguments, to configuration: HTTPClient.Configuration)
        -> HTTPClient.Configuration
    {
        var changed = configuration
        changed.retry = retryPolicy(configuration.retry, arguments)
        if arguments.has(verbose.key) {
            changed.trace = { record in
                for line in record.verboseLines { ErrorOutput.trace(line) }
            }
        }
        return changed
    }
}
