import Transport

/// Collects the steps of a sign-in from ``SignIn/Options/trace``, which may call it on any thread.
///
/// ```swift
/// let collector = SignInTraceCollector()
/// let outcome = await SignIn(client: client, configuration: configuration,
///     options: SignIn.Options(trace: collector.add)).run()
/// try store.saveLastSignIn(SignInRecord(outcome: outcome, trace: collector.steps), profile: "default")
/// ```
public final class SignInTraceCollector: Sendable {
    /// Steps arrive from the transfer thread's callbacks: a pthread mutex ThreadSanitizer sees (``PosixMutex``).
    private let collected = PosixMutex<[SignInTraceStep]>([])

    /// Creates an empty collector.
    public init() {}

    /// The steps received so far, in order.
    public var steps: [SignInTraceStep] { collected.withLock { $0 } }

    /// Adds one step (the ``SignIn/Options/trace`` callback).
    @Sendable public func add(_ step: SignInTraceStep) {
        collected.withLock { $0.append(step) }
    }
}
