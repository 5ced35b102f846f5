import Foundation
import SPSim
import TestSupport

/// An https spsim tenant for command tests: the simulator, an app certificate registered for `appIds`, a private state
/// folder that is spconnect's home, and the simulator's certificate in a CA file there (`--cacert`). Stopped and
/// removed when released. The token, passkey and certificate tests' worlds are made of it.
class HTTPSTenant {
    let sim: Simulator
    let app: TestAppCredential
    /// spconnect's `HOME` and `XDG_STATE_HOME`.
    let state: String
    /// The simulator's certificate, to pass as `--cacert`.
    let caPath: String

    /// Starts `options` (served over TLS whatever it says) and registers a fresh app certificate for `appIds`.
    init(_ options: SimulatorOptions, appIds: [String], folder: String) async throws {
        var options = options
        options.tls = true
        sim = try Simulator(options)
        app = try await TestAppCredential.make()
        for id in appIds { sim.registerCertificate(app.certificatePEM, appId: id) }
        state = try temporaryDirectory(folder)
        caPath = state + "/ca.pem"
        try Data((sim.certificatePEM ?? "").utf8).write(to: URL(fileURLWithPath: caPath))
    }

    deinit {
        sim.stop()
        try? FileManager.default.removeItem(atPath: state)
    }

    /// spconnect's environment: the state folder as its home.
    var environment: [String: String] { ["XDG_STATE_HOME": state, "HOME": state] }
}
