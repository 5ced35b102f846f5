/// What a soak did and found.
struct SoakReport {
    var faults: [Fault: Int] = [:]
    var unavailable: Set<Fault> = []
    var runs = 0
    var reruns = 0
    var exitCodes: [Int32: Int] = [:]
    var killed = 0
    var changes: [String: Int] = [:]
    var discrepancies: [String] = []

    var faultCount: Int { faults.values.reduce(0, +) }

    mutating func record(_ step: NightlyJob.Step, _ run: ChildRun) {
        runs += 1
        if run.killed { killed += 1 } else { exitCodes[run.status, default: 0] += 1 }
    }

    mutating func count(_ made: [String: Int]) {
        changes.merge(made) { $0 + $1 }
    }

    /// The summary: nights, server changes, faults injected (and those this machine cannot inject), runs by exit
    /// code, reruns, and every discrepancy.
    func summary(nights: Int) -> String {
        var lines = ["soak: \(nights) nights"]
        lines.append(
            "server changes: "
                + changes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        lines.append(
            "faults injected: "
                + Fault.allCases.compactMap { fault in faults[fault].map { "\($0) \(fault.rawValue)" } }.joined(
                    separator: ", "))
        if !unavailable.isEmpty {
            lines.append(
                "not injected on this machine: " + unavailable.map(\.rawValue).sorted().joined(separator: ", ")
                    + " (a tmpfs mount needs root)")
        }
        lines.append(
            "runs: \(runs) (\(killed) killed on purpose, \(reruns) run again after a failure); exit codes: "
                + exitCodes.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))
        lines.append("discrepancies: \(discrepancies.count)")
        lines += discrepancies.prefix(50).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
