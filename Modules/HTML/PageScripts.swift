/// The page's scripts and its body's `onload`, each read by at most one ``ScriptScanner`` pass for everything the page
/// asks of it: the navigation it makes on load, the form it submits, the content it loads into an element, and the
/// names it refers to (which named functions run on load, ``ScriptReferences``).
///
/// A piece of code is read only when a question needs it: for a navigation or a submission when its bytes show the
/// signs of one (``ScriptReading/mayRedirect(_:)``, ``ScriptReading/maySubmitOrClick(_:)``), for content loads on a
/// page without forms, and every piece when a navigation or submission found sits in a named function. Read once, a
/// piece is read for every question it may answer, so no question reads it again. The answers are those of the
/// one-question readers of ``ScriptReading``, asked piece by piece. Not thread-safe (one page read, one thread).
final class PageScripts {
    private let code: [String]
    private let scriptCount: Int
    private let hasForms: Bool
    private let readsContentLoads: Bool
    private var targets: [ScriptScanner.Targets?]
    private var scans: [ScriptScan?]
    /// Whether each name asked about (and each its answer depended on) is invoked.
    private var invocations: [String: Bool] = [:]

    /// The page's JavaScript (inline scripts, in order) and its body's `onload`; `hasForms` tells whether the page has
    /// a form a script could submit, `readsContentLoads` whether it will ask for content loads (a page without forms,
    /// with an empty element to load them into).
    init(javaScripts: [String], onload: String?, hasForms: Bool, readsContentLoads: Bool = false) {
        code = javaScripts + [onload].compactMap { $0 }
        scriptCount = javaScripts.count
        self.hasForms = hasForms
        self.readsContentLoads = readsContentLoads
        targets = Array(repeating: nil, count: code.count)
        scans = Array(repeating: nil, count: code.count)
    }

    /// The index of the body's `onload` among the pieces, if the page has one.
    var onloadIndex: Int? { code.count > scriptCount ? scriptCount : nil }

    /// The indices of the pieces: the scripts, then the body's `onload`.
    var indices: Range<Int> { code.indices }

    /// Whether the function named `name` is invoked on load: ``ScriptReferences``'s answer over all the pieces, worked
    /// out from the pieces that can bear on it. A piece refers to a name only where its bytes spell it, unless a timer
    /// of it runs a string (whose escapes may spell it): the pieces read are those that may refer to `name`, then to
    /// each name a scope holding such a reference waits on, and so on until no new name appears. Every name met so is
    /// answered at once.
    func isInvoked(_ name: String) -> Bool {
        if let known = invocations[name] { return known }
        var demanded: Set<String> = [name]
        var waiting = [name]
        var relevant = Set<Int>()
        while let next = waiting.popLast() {
            for index in code.indices where mayRefer(to: next, in: index) {
                relevant.insert(index)
                let scan = scan(index)
                for reference in scan.references where reference.name == next {
                    var scope = reference.scope
                    while scope >= 0 {
                        if case .ifCalled(let awaited) = scan.scopes[scope].activation,
                            demanded.insert(awaited).inserted
                        {
                            waiting.append(awaited)
                        }
                        scope = scan.scopes[scope].parent
                    }
                }
            }
        }
        let invoked = ScriptReferences.invokedNames(scans: relevant.sorted().map(scan))
        for demandedName in demanded { invocations[demandedName] = invoked.contains(demandedName) }
        return invoked.contains(name)
    }

    /// Whether piece `index` may refer to `name`: its bytes spell the name, or a timer of it may run a string whose
    /// escapes spell it.
    private func mayRefer(to name: String, in index: Int) -> Bool {
        var needle = name
        return needle.withUTF8 { needle in
            ScriptStrings.withBytes(code[index]) { bytes in
                ScriptStrings.contains(bytes, needle)
                    || (bytes.contains(UInt8(ascii: "\\")) && ScriptSigns.callsTimer(bytes))
            }
        }
    }

    /// The first navigation performed on load by a script, then by the body's `onload`
    /// (``ScriptReading/redirectTarget(in:isInvoked:)`` of each in turn).
    func redirectTarget() -> String? {
        for index in code.indices where targets(of: index).contains(.redirects) {
            if let target = scan(index).firstRunning(isInvoked: isInvoked, ScriptReading.navigation) { return target }
        }
        return nil
    }

    /// The first submission piece `index` makes on load (``ScriptReading/submission(in:isInvoked:)``); nil on a page
    /// without forms.
    func submission(in index: Int) -> ScriptSubmission? {
        guard targets(of: index).contains(.submissions) else { return nil }
        return scan(index).firstRunning(isInvoked: isInvoked, ScriptReading.submission)
    }

    /// The content loads script `index` makes on load (``ScriptReading/contentLoads(in:isInvoked:)``); none unless the
    /// page reads them, and none from the body's `onload`.
    func contentLoads(in index: Int) -> [(String, String)] {
        guard targets(of: index).contains(.contentLoads) else { return [] }
        return scan(index).running(isInvoked: isInvoked, ScriptReading.contentLoad)
    }

    /// What piece `index` may answer, from signs in its bytes (worked out once).
    private func targets(of index: Int) -> ScriptScanner.Targets {
        if let known = targets[index] { return known }
        let found = ScriptStrings.withBytes(code[index]) { bytes -> ScriptScanner.Targets in
            var found: ScriptScanner.Targets = .references
            let signs = ScriptReading.signs(in: bytes, redirect: true, submit: hasForms)
            if signs.redirect { found.insert(.redirects) }
            if signs.submit { found.insert(.submissions) }
            if readsContentLoads && index < scriptCount && bytes.contains(UInt8(ascii: "(")) {
                found.insert(.contentLoads)
            }
            return found
        }
        targets[index] = found
        return found
    }

    /// Piece `index` read once, for all it may answer.
    private func scan(_ index: Int) -> ScriptScan {
        if let scan = scans[index] { return scan }
        let targets = targets(of: index)
        let scan = ScriptStrings.withBytes(code[index]) { bytes -> ScriptScan in
            var scanner = ScriptScanner(bytes: bytes, targets: targets)
            scanner.run()
            return scanner.result
        }
        scans[index] = scan
        return scan
    }
}
