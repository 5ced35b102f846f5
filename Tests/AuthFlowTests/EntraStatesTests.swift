import AuthFlow
import SPSim
import Testing

/// Entra's Conditional Access and registration states after the password, as spsim words them: each ends the
/// sign-in with its kind (the general one it refines), Entra's own words and code, and a way forward.
@Suite struct EntraStatesTests {
    @Test(arguments: EntraInterrupt.documentedCodes)
    func eachStateIsNamedWithEntrasWordsAndAWayForward(code: String) async throws {
        var options = SimulatorOptions(mode: .entra)
        options.entraInterrupt = EntraInterrupt(code: code)
        let simulator = try Simulator(options)
        defer { simulator.stop() }
        let run = try await SimulatorSignInTests.signIn(simulator, user: "alice@contoso.test")
        guard case .interactionRequired(let kind, _, _, _, _) = run.outcome else {
            Issue.record("\(code): expected interactionRequired, got \(run.outcome.message)")
            return
        }
        let message = run.outcome.message
        #expect(message.contains("AADSTS\(code)"), "\(message)")
        switch code {
        case "50072", "50203":
            #expect(kind == .mfa)
            #expect(message.contains("https://aka.ms/mysecurityinfo"), "\(message)")
        case "53003":
            #expect(kind == .conditionalAccess)
            #expect(message.contains("stopped the sign-in") && message.contains("administrator"), "\(message)")
        default:
            #expect(kind == .conditionalAccess)
            #expect(message.contains("app-only sign-in with a certificate"), "\(message)")
        }
        let words = ["53000": "compliant device", "53001": "domain-joined", "53002": "approved client app"]
        if let expected = words[code] { #expect(message.contains(expected), "\(message)") }
    }
}
