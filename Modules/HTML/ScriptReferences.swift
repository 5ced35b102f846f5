/// Which named functions of a page are invoked on load: a name counts when it is referred to (called, or
/// handed over as in `onload = go` or `setTimeout(go, 0)`) from code that itself runs on load — the top level
/// of a script or of the body's `onload`, or a function that runs by the rules of `ScriptScanner`, including,
/// transitively, a named function invoked that way. A function called only from an `onclick` handler (or
/// from another function nothing calls on load) is not invoked. Where a name is defined (`function go`, the
/// target of `go = …`, an object key `go: …`) is not a reference; `go(` inside a string literal is (code for
/// `setTimeout`, markup with handlers written by a script). Comments are not code.
///
/// Built once, on the first question, in one pass over all the code plus a worklist over its scopes (linear
/// in the code's length); each question is then a set lookup. Not thread-safe (one page read, one thread).
final class ScriptReferences {
    private let code: [String]
    private var invoked: Set<String>?

    /// The references of `code` (the page's scripts and the body's `onload`).
    init(code: [String]) {
        self.code = code
    }

    /// Whether the function named `name` is invoked on load.
    func contains(_ name: String) -> Bool {
        if let invoked { return invoked.contains(name) }
        let names = Self.invokedNames(code)
        invoked = names
        return names.contains(name)
    }

    static func invokedNames(_ code: [String]) -> Set<String> {
        invokedNames(
            scans: code.map { text in
                ScriptStrings.withBytes(text) { bytes in
                    var scanner = ScriptScanner(bytes: bytes, targets: .references)
                    scanner.run()
                    return scanner.result
                }
            })
    }

    /// ``invokedNames(_:)`` from passes already made over each piece of code (each with target
    /// ``ScriptScanner/Targets/references``, whatever else it looked for).
    static func invokedNames(scans: [ScriptScan]) -> Set<String> {
        // All scopes of all the code in one array; each piece of code has its own root.
        var parents: [Int] = []
        var activations: [ScriptScanner.Activation] = []
        var references: [(name: String, scope: Int)] = []
        for scan in scans {
            let base = parents.count
            for scope in scan.scopes {
                parents.append(scope.parent < 0 ? -1 : base + scope.parent)
                activations.append(scope.activation)
            }
            for reference in scan.references { references.append((reference.name, base + reference.scope)) }
        }
        var children = [[Int]](repeating: [], count: parents.count)
        var roots: [Int] = []
        for (scope, parent) in parents.enumerated() {
            if parent < 0 { roots.append(scope) } else { children[parent].append(scope) }
        }
        var namesInScope = [[String]](repeating: [], count: parents.count)
        for reference in references { namesInScope[reference.scope].append(reference.name) }

        var invoked = Set<String>()
        var waiting: [String: [Int]] = [:]
        var work = roots
        while let scope = work.popLast() {
            for name in namesInScope[scope] where invoked.insert(name).inserted {
                if let scopes = waiting.removeValue(forKey: name) { work.append(contentsOf: scopes) }
            }
            for child in children[scope] {
                switch activations[child] {
                case .runs: work.append(child)
                case .never: break
                case .ifCalled(let name):
                    if invoked.contains(name) { work.append(child) } else { waiting[name, default: []].append(child) }
                }
            }
        }
        return invoked
    }
}
