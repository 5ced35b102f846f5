import Foundation
import SPSim

/// What can go wrong on a night, from the server (spsim) or from the machine (the harness).
enum Fault: String, CaseIterable, Sendable {
    case sessionEnded = "session ended"
    case identityProviderSessionEnded = "identity-provider session ended"
    case sessionLifetimeEndsMidRun = "session lifetime ends mid-run"
    case throttled = "429 burst with Retry-After"
    case unavailable = "503 burst with Retry-After"
    case droppedMidBody = "connection dropped mid-body"
    case serverErrors = "500 errors"
    case changeLogTruncated = "change log truncated (token too old)"
    case killedMidRun = "SIGKILL mid-run"
    case diskFull = "disk full (ENOSPC)"
    case clockJump = "clock jump"

    /// Faults the server applies before the job starts (the harness's own reads come after it ends); a session's
    /// lifetime ends after a random number of the job's requests.
    func applyToServer(_ sim: Simulator, random: inout SoakRandom) {
        var spec = FaultSpec()
        spec.retryAfterSeconds = 1
        switch self {
        case .sessionEnded: sim.expireSessions()
        case .identityProviderSessionEnded:
            sim.revokeIdentityProviderSessions()
            sim.expireSessions()
        case .sessionLifetimeEndsMidRun: sim.expireSessions(afterRequests: 2 + random.below(60))
        case .throttled:
            spec.status429 = 3
            sim.injectFaults(spec)
        case .unavailable:
            spec.status503 = 2
            sim.injectFaults(spec)
        case .droppedMidBody:
            spec.dropPath = "$value"
            spec.dropTimes = 1
            sim.injectFaults(spec)
        case .serverErrors:
            spec.status500 = 2
            sim.injectFaults(spec)
        case .changeLogTruncated: sim.truncateChangeLog()
        case .killedMidRun:
            // Files arrive slowly, so the kill lands while they are being written.
            spec.dripPath = "$value"
            spec.dripDelayMilliseconds = 20
            sim.injectFaults(spec)
        case .diskFull, .clockJump: break
        }
    }
}

/// Which faults each night gets: with as many nights as faults or more, each fault once in the first nights (so a
/// short run covers them all), then each with a small chance every night.
struct FaultPlan {
    let nights: Int

    func faults(night: Int, random: inout SoakRandom) -> [Fault] {
        if nights >= Fault.allCases.count, night <= Fault.allCases.count {
            return [Fault.allCases[night - 1]]
        }
        return Fault.allCases.filter { _ in random.chance(5) }
    }
}
