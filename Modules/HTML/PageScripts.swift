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
    private var targets: [ScriptScanner.Targets?]
    private var scans: [ScriptScan?]
    private var invokedNames: Set<String>?

    /// The page's JavaScript (inline scripts, in order) and its body's `onload`; `hasForms` tells whether the page has
    /// a form a script could submit (a page without one is asked for content loads instead).
    init(javaScripts: [String], onload: String?, hasForms: Bool) {
        code = javaScripts + [onload].compactMap { $0 }
        scriptCount = javaScripts.count
        self.hasForms = hasForms
        targets = Array(repeating: nil, count: code.count)
        scans = Array(repeating: nil, count: code.count)
    }

    /// The index of the body's `onload` among the pieces, if the page has one.
    var onloadIndex: Int? { code.count > scriptCount ? scriptCount : nil }

    /// The indices of the pieces: the scripts, then the body's `onload`.
    var indices: Range<Int> { code.indices }

    /// Whether the function named `name` is invoked on load (``ScriptReferences``), from every piece's references.
    func isInvoked(_ name: String) -> Bool {
        if let invokedNames { return invokedNames.contains(name) }
        let names = ScriptReferences.invokedNames(scans: code.indices.map(scan))
        invokedNames = names
        return names.contains(name)
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

    /// The content loads script `index` makes on load (``ScriptReading/contentLoads(in:isInvoked:)``); none on a page
    /// with forms, and none from the body's `onload`.
    func contentLoads(in index: Int) -> [(String, String)] {
        guard targets(of: index).contains(.contentLoads) else { return [] }
        return scan(index).running(isInvoked: isInvoked, ScriptReading.contentLoad)
    }

    /// What piece `index` may answer, from signs in its bytes (worked out once).
    private func targets(of index: Int) -> ScriptScanner.Targets {
        if let known = targets[index] { return known }
        let found = ScriptStrings.withBytes(code[index]) { bytes -> ScriptScanner.Targets in
            var found: ScriptScanner.Targets = .references
            if ScriptReading.mayRedirect(bytes) { found.insert(.redirects) }
            if hasForms && ScriptReading.maySubmitOrClick(bytes) { found.insert(.submissions) }
            if !hasForms && index < scriptCount && bytes.contains(UInt8(ascii: "(")) { found.insert(.contentLoads) }
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
