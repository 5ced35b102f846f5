import Foundation
import SPSim
import SharePoint

#if canImport(Glibc)
    import Glibc
#endif

/// A year of nightly jobs in minutes: each night the site changes, the night's faults strike, the recipe runs
/// (steps that failed as documented run again, as the next timer would), and every output is checked against the
/// server's ground truth.
final class Soak {
    let world: SoakWorld
    let nights: Int
    var random: SoakRandom
    let job: NightlyJob
    /// Whether the mirror lives on a small tmpfs of its own (ENOSPC can be injected).
    let smallDisk: Bool
    /// The clock jump's library, nil without a C compiler.
    let clockShift: ClockShift?
    var report = SoakReport()
    private var replica: [Int: String] = [:]

    init(world: SoakWorld, nights: Int, seed: UInt64, rclone: [String: String]?) {
        self.world = world
        self.nights = nights
        random = SoakRandom(seed: seed)
        job = NightlyJob(world: world, rclone: rclone)
        smallDisk = Soak.mountSmallDisk(world.mirror)
        clockShift = ClockShift.build(into: world.work)
    }

    func run(progress: (String) -> Void) async throws {
        let plan = FaultPlan(nights: nights)
        for night in 1...nights {
            let changes = try await ServerChanges(world: world).applyDay(night, random: &random)
            changeSource(night)
            report.count(changes)
            var faults = plan.faults(night: night, random: &random)
            faults.removeAll { fault in
                let available =
                    switch fault {
                    case .diskFull: smallDisk
                    case .clockJump: clockShift != nil
                    default: true
                    }
                if !available { report.unavailable.insert(fault) }
                return !available
            }
            log("night \(night): faults \(faults.map(\.rawValue)); changes \(changes.sorted { $0.key < $1.key })")
            let before = report.discrepancies.count
            try await runNight(night, faults: faults)
            world.sim.injectFaults(FaultSpec())
            let found = try await verify(night)
            report.discrepancies += found.map { "night \(night): \($0)" }
            for discrepancy in report.discrepancies[before...] {
                log(discrepancy)
                progress(discrepancy)
            }
            if night % 30 == 0 || night == nights {
                progress(
                    "night \(night): \(report.runs) runs, \(report.faultCount) faults, "
                        + "\(report.discrepancies.count) discrepancies")
            }
        }
        if smallDisk { _ = umount(world.mirror) }
    }

    private func runNight(_ night: Int, faults: [Fault]) async throws {
        for fault in faults {
            fault.applyToServer(world.sim, random: &random)
            report.faults[fault, default: 0] += 1
        }
        let ballast = faults.contains(.diskFull) ? fillDisk() : nil
        var clock: (ClockShift, Int)? = nil
        if faults.contains(.clockJump), let clockShift {
            let seconds = random.pick(ClockShift.shifts)
            clock = (clockShift, seconds)
            log("  clock moved by \(seconds) s")
        }
        for step in NightlyJob.Step.allCases where step != .rclone || job.rclone != nil {
            var kill: Duration? = nil
            if faults.contains(.killedMidRun), step == .download {
                kill = .milliseconds(20 + random.below(300))
            }
            let hadToken = FileManager.default.fileExists(atPath: world.itemsToken)
            var result = try await job.run(step, night: night, attempt: 1, killAfter: kill, clock: clock)
            report.record(step, result)
            log("  \(step.rawValue): " + (result.hung ? "hung" : result.killed ? "killed" : "exit \(result.status)"))
            if result.hung {
                report.discrepancies.append("night \(night): \(step.rawValue) hung (killed after the timeout)")
            }
            let acceptable = NightlyJob.acceptable(faults)
            if !result.killed, !result.hung, !acceptable.contains(result.status) {
                report.discrepancies.append(
                    "night \(night): \(step.rawValue) exited \(result.status), not one of \(acceptable.sorted()) "
                        + "documented for \(faults.map(\.rawValue)): \(result.stderr.suffix(400))")
            }
            if result.status != 0 || result.killed {
                // The next run, as a timer would start it, with the faults gone.
                world.sim.injectFaults(FaultSpec())
                if let ballast { try? FileManager.default.removeItem(atPath: ballast) }
                result = try await job.run(step, night: night, attempt: 2)
                report.record(step, result)
                report.reruns += 1
                log("  \(step.rawValue) again: " + (result.hung ? "hung" : "exit \(result.status)"))
                if result.status != 0 {
                    report.discrepancies.append(
                        "night \(night): \(step.rawValue) failed again without faults (exit \(result.status)): "
                            + String(result.stderr.suffix(400)))
                }
            }
            if step == .items, result.status == 0 {
                let export = (try? String(contentsOfFile: world.export, encoding: .utf8)) ?? ""
                let full = !hadToken || result.stderr.contains("a full run")
                try Verification.apply(export: export, stderr: result.stderr, full: full, to: &replica)
            }
        }
        if let ballast { try? FileManager.default.removeItem(atPath: ballast) }
    }

    private func verify(_ night: Int) async throws -> [String] {
        let truth = try await ServerTree.read(world.mirroredFolder, site: world.site, sim: world.sim)
        var found = Verification.compare(
            copy: Verification.localTree(world.mirror), truth: truth.files, what: "the mirror")
        if job.rclone != nil {
            found += Verification.compare(
                copy: Verification.localTree(world.rcloneCopy), truth: truth.files, what: "rclone's copy")
        }
        let uploaded = try await ServerTree.read(world.uploadedFolder, site: world.site, sim: world.sim)
        found += Verification.compare(
            copy: uploaded.files, truth: Verification.localTree(world.source), what: "the uploaded folder")
        let titles = try await ServerTree.itemTitles(world.list, site: world.site)
        if titles != replica {
            let missing = titles.filter { replica[$0.key] != $0.value }.map(\.key).sorted()
            let extra = replica.keys.filter { titles[$0] == nil }.sorted()
            found.append(
                "items export: \(missing.count) items missing or stale \(missing.prefix(5)), \(extra.count) extra")
        }
        return found
    }

    /// One line in the night log (`WORK/nights.log`): each night's faults, changes and exit codes.
    private func log(_ line: String) {
        let path = world.work + "/nights.log"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try? handle.close()
    }

    /// The local folder that is uploaded changes too: files added, edited and deleted.
    private func changeSource(_ night: Int) {
        let existing = Verification.localTree(world.source).keys.sorted()
        for index in 0..<random.below(3) {
            let folder = random.pick(["", "a", "a/b", "c"])
            let path = world.source + "/" + join(folder, "local-\(night)-\(index).txt")
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? "night \(night) \(random.next())\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        if random.chance(40), !existing.isEmpty {
            let path = world.source + "/" + random.pick(existing)
            // A later time than the server's copy: the upload sends it again.
            try? "edited night \(night) \(random.next())\n".write(toFile: path, atomically: true, encoding: .utf8)
            let later = Date().addingTimeInterval(2)
            try? FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        }
        if random.chance(30), !existing.isEmpty {
            try? FileManager.default.removeItem(atPath: world.source + "/" + random.pick(existing))
        }
    }

    /// A 64 MiB tmpfs on the mirror's folder when the harness may mount one (root, not in a locked-down container).
    private static func mountSmallDisk(_ path: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return mount("tmpfs", path, "tmpfs", 0, "size=64m,mode=0700") == 0
    }

    /// Fills the mirror's disk but for a few KiB; the file to remove afterwards.
    private func fillDisk() -> String? {
        var info = statvfs()
        guard statvfs(world.mirror, &info) == 0 else { return nil }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let path = world.mirror + "/.soak-ballast"
        guard free > 8192, FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return nil }
        let chunk = Data(count: 1 << 20)
        var left = free - 4096
        while left > 0 {
            let piece = left >= chunk.count ? chunk : chunk.prefix(left)
            guard (try? handle.write(contentsOf: piece)) != nil else { break }
            left -= piece.count
        }
        try? handle.close()
        return path
    }
}
