/// What one sign-in may spend and has spent: requests (``SignInPolicy/maxSteps``), repeats of one request (a
/// cycle), answers to interrupts (stay signed in, notices, provider choices) and one-time codes. Time is the
/// driver's to spend (``SignIn/Options/deadline``): the machine has no clock that moves it on.
struct SignInBudget: Sendable {
    /// The most interrupts one sign-in answers before it calls the pages a loop.
    static let interruptAnswers = 3
    /// The most one-time codes one sign-in sends before it calls them refused.
    static let codeAttempts = 3
    /// The most times one request without a form may go before it is a cycle.
    static let repeatsOfOneRequest = 2

    /// Requests the sign-in may send (a second factor's polls, which wait, are not counted).
    let maxSteps: Int
    /// Requests counted so far.
    private(set) var steps = 0
    /// Interrupts answered so far.
    private(set) var interruptsAnswered = 0
    /// One-time codes sent so far (a code page shown again means the last was refused).
    private(set) var codesSubmitted = 0
    private var visits: [String: Int] = [:]

    init(maxSteps: Int) {
        self.maxSteps = maxSteps
    }

    /// Counts one request; false when it is one more than the policy allows.
    mutating func spendStep() -> Bool {
        steps += 1
        return steps <= maxSteps
    }

    /// Counts one more sending of the request `key` names; false when that makes it a cycle.
    mutating func visit(_ key: String) -> Bool {
        visits[key, default: 0] += 1
        return visits[key, default: 0] <= Self.repeatsOfOneRequest
    }

    /// Counts the answer to an interrupt; false (and nothing counted) when the sign-in has answered all it may.
    mutating func answerInterrupt() -> Bool {
        guard interruptsAnswered < Self.interruptAnswers else { return false }
        interruptsAnswered += 1
        return true
    }

    /// Whether another one-time code may be asked for.
    var mayAskForCode: Bool { codesSubmitted < Self.codeAttempts }

    /// Counts a one-time code sent.
    mutating func codeSent() {
        codesSubmitted += 1
    }
}
