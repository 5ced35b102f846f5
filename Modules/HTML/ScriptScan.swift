/// What one ``ScriptScanner`` pass over a script found: its scopes, the navigations, submissions and content loads in
/// them, and the names each refers to. A value: it outlives the script's bytes.
struct ScriptScan {
    let scopes: [ScriptScanner.Scope]
    let candidates: [ScriptScanner.Candidate]
    let references: [(name: String, scope: Int)]

    /// The first candidate `pick` accepts whose code runs on load.
    func firstRunning<Value>(isInvoked: (String) -> Bool, _ pick: (ScriptScanner.Found) -> Value?) -> Value? {
        running(isInvoked: isInvoked, limit: 1, pick).first
    }

    /// The candidates `pick` accepts whose code runs on load, in order, at most `limit`.
    func running<Value>(
        isInvoked: (String) -> Bool, limit: Int = .max, _ pick: (ScriptScanner.Found) -> Value?
    ) -> [Value] {
        var values: [Value] = []
        var state = [UInt8](repeating: 0, count: scopes.count)  // 0 unknown, 1 runs, 2 does not
        var chain: [Int] = []
        func runs(_ scope: Int) -> Bool {
            chain.removeAll(keepingCapacity: true)
            var current = scope
            while current >= 0 && state[current] == 0 {
                chain.append(current)
                current = scopes[current].parent
            }
            var running = current < 0 || state[current] == 1
            for index in chain.reversed() {
                if running {
                    switch scopes[index].activation {
                    case .runs: running = true
                    case .never: running = false
                    case .ifCalled(let name): running = isInvoked(name)
                    }
                }
                state[index] = running ? 1 : 2
            }
            return running
        }
        for candidate in candidates where values.count < limit {
            guard let value = pick(candidate.found) else { continue }
            if runs(candidate.scope) { values.append(value) }
        }
        return values
    }

}
