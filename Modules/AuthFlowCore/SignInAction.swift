/// The machine's next move.
public enum SignInAction: Sendable {
    case send(SignInRequest)
    case finish(SignInOutcome)
    /// A page asks for a one-time code: answer with ``SignInMachine/provide(code:)``.
    case needCode(OneTimeCodeRequest)
}
