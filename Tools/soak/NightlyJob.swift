import Foundation

/// The documented nightly recipe, one spconnect process per step, as a timer would run it: the library mirrored
/// (`download -r --incremental --delete`), a local folder uploaded (`upload -r --delete`), a list exported by change
/// token (`items --since-token --out`), and, while the gateway serves, `rclone sync` of the library through it.
struct NightlyJob {
    let world: SoakWorld
    /// The rclone remote's environment when rclone and the gateway run, else nil.
    let rclone: [String: String]?

    /// One step of the recipe.
    enum Step: String, CaseIterable {
        case download, upload, items, rclone
    }

    func arguments(_ step: Step) -> [String] {
        switch step {
        case .download:
            return [
                "download", "-r", world.mirroredFolder, "--to", world.mirror, "--delete", "--incremental",
                world.mirrorToken, "--wait", "60", "-o", "ndjson", "--quiet",
            ]
        case .upload:
            return ["upload", "-r", world.source, "--to", world.uploadedFolder, "--delete", "-o", "ndjson", "--quiet"]
        case .items:
            return [
                "items", world.list, "--select", "Id,Title", "--since-token", world.itemsToken, "--out", world.export,
                "-o", "ndjson",
            ]
        case .rclone:
            return [
                // rclone compares size and time, which SharePoint keeps to the second: --ignore-times has it fetch
                // every file, so the check below tests what the gateway serves, not rclone's shortcut.
                "sync", "sp:" + String(world.mirroredFolder.dropFirst()), world.rcloneCopy, "--retries", "3",
                "--low-level-retries", "3", "--ignore-times",
            ]
        }
    }

    /// Runs `step`; `killAfter` ends it early, `clock` moves spconnect's wall clock by its seconds.
    func run(
        _ step: Step, night: Int, attempt: Int, killAfter: Duration? = nil, clock: (ClockShift, Int)? = nil
    ) async throws -> ChildRun {
        let label = "night\(night)-\(step.rawValue)-\(attempt)"
        if step == .rclone, let rclone {
            return try await ChildRun.run(
                "/usr/bin/rclone", arguments(step), environment: rclone, logs: world.work + "/logs", label: label)
        }
        let environment = clock.map { $0.0.environment(world.environment, shiftedBy: $0.1) } ?? world.environment
        return try await ChildRun.run(
            world.spconnect, arguments(step), environment: environment,
            logs: world.work + "/logs", label: label, killAfter: killAfter)
    }

    /// The exit codes docs/cli.md gives for a step under `faults`: 0 without any; with one, 0 (retried, renewed,
    /// a full run) or the codes it documents for that failure.
    static func acceptable(_ faults: [Fault]) -> Set<Int32> {
        var codes: Set<Int32> = [0]
        for fault in faults {
            switch fault {
            case .throttled, .unavailable: codes.formUnion([10, 13])
            case .droppedMidBody: codes.formUnion([1, 6])
            case .serverErrors: codes.formUnion([1, 13])
            case .diskFull: codes.formUnion([1])
            case .sessionEnded, .identityProviderSessionEnded, .sessionLifetimeEndsMidRun, .changeLogTruncated,
                .killedMidRun,
                .clockJump:
                break
            }
        }
        return codes
    }
}
