import Foundation
import SPSim

/// What can go wrong on a night, from the server (spsim) or from the machine (the harness).
enum Fault: String, CaseIterable, Sendable {
    case sessionEnded = "session ended"
    case identityProviderSessionEnded = "identity-provider session ended"
    case throttled = "429 burst with Retry-After"
    case unavailable = "503 burst with Retry-After"
    case droppedMidBody = "connection dropped mid-body"
    case serverErrors = "500 errors"
    case changeLogTruncated = "change log truncated (token too old)"
    case killedMidRun = "SIGKILL mid-run"
    case diskFull = "disk full (ENOSPC)"

    /// Faults the server applies before the job starts (the harness's own reads come after it ends).
    func applyToServer(_ sim: Simulator) {
        var spec = FaultSpec()
        spec.retryAfterSeconds = 1
        switch self {
        case .sessionEnded: sim.expireSessions()
        case .identityProviderSessionEnded:
            sim.revokeIdentityProviderSessions()
            sim.expireSessions()
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
        case .diskFull: break
        }
    }
}

/// Which faults each night gets: with ten nights or more, each fault once in the first ten (so a short run covers
/// them all), then each with a small chance every night.
struct FaultPlan {
    let nights: Int

    func faults(night: Int, random: inout SoakRandom) -> [Fault] {
        if nights >= Fault.allCases.count, night <= Fault.allCases.count {
            return [Fault.allCases[night - 1]]
        }
        return Fault.allCases.filter { _ in random.chance(5) }
    }
}
