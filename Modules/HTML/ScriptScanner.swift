// One file on purpose (about 900 lines): the scanner is one pass over the tokens whose rules share its private state.

/// What a script does to submit a form by itself.
enum ScriptSubmission: Sendable, Equatable {
    /// `submit()` or `requestSubmit()` on a form.
    case form(FormReference)
    /// `click()` on the element with this id (a form is submitted when it is one of its submit buttons).
    case click(id: String)
}

/// One pass over a script's tokens that finds the navigations and self-submissions it performs and, for each,
/// whether the code around it runs when the page loads.
///
/// Every function body (and `catch` block) is a scope. The page's top level runs. A nested scope runs when its
/// parent runs and:
/// - it is invoked where it is written: `(function(){…})()`, `!function(){…}()`, `(() => {…})()`, `.call(`/
///   `.apply(` right after it, `new function(){…}`;
/// - it is handed to something that calls it on load: the first argument of `setTimeout`/`setInterval`/
///   `requestAnimationFrame`/`setImmediate`/`queueMicrotask`, of jQuery's `$(…)`/`jQuery(…)` and `.ready(…)`,
///   `$(window).load(…)`, the handler of `addEventListener`/`attachEvent`/jQuery `.on` on the window or
///   document for `load`, `DOMContentLoaded`, `pageshow`, `readystatechange`, or an assignment to the window's
///   (or body's) `onload`/`onpageshow` or the document's `onreadystatechange`;
/// - it has a name (a declaration `function go(){…}`, `var go = function…`, `x.go = function…`, `go: function…`,
///   a method `go(){…}`) and `isInvoked` says that name is called or referenced somewhere (the page's code, the
///   body's onload).
/// Anything else (a callback handed to another function, a function in an array or returned, a `catch` block)
/// does not run on load. A string handed to a timer (`setTimeout('document.forms[0].submit()', 0)`) is code
/// and is read the same way.
struct ScriptScanner {
    /// What one pass looks for; one pass may look for several at once (``PageScripts`` does).
    struct Targets: OptionSet {
        let rawValue: UInt8

        static let redirects = Targets(rawValue: 1 << 0)
        static let submissions = Targets(rawValue: 1 << 1)
        /// Loads of a URL's content into an element: `f('url', 'id')`, `$('#id').load('url')`.
        static let contentLoads = Targets(rawValue: 1 << 2)
        /// The names referred to in each scope (see `ScriptReferences`).
        static let references = Targets(rawValue: 1 << 3)
    }

    enum Found {
        case redirect(String)
        case submission(ScriptSubmission)
        /// Two string literals handed to a call that loads content: one names the element, one the URL (which is
        /// which the page decides, knowing its element ids).
        case contentLoad(String, String)
    }

    struct Candidate {
        var scope: Int
        var found: Found
    }

    enum Activation {
        /// Runs when its parent runs.
        case runs
        case never
        /// Runs when its parent runs and the name is invoked.
        case ifCalled(String)
    }

    struct Scope {
        var parent: Int
        var activation: Activation
    }

    private enum Role: UInt8 {
        case call, group, params, control, array, object, block, functionBody, catchBody, classBody
    }

    private enum Callee: UInt8 {
        /// Calls nothing we know of on load.
        case other
        /// Calls its first argument (a function, or a string of code) on load.
        case timer
        /// Calls its first argument on load (jQuery ready).
        case onReady
        /// Calls its second argument on load when the first names a load event.
        case listener
    }

    /// How the function being read will be activated, from what comes before it.
    private enum Rule {
        case runs, never
        case named(String)
        /// A declaration: named by its own name, if it has one.
        case ownName
    }

    /// The four significant tokens before some point, nearest first.
    private struct Lookback {
        var t1 = ScriptToken.none
        var t2 = ScriptToken.none
        var t3 = ScriptToken.none
        var t4 = ScriptToken.none
    }

    private struct Frame {
        var opener: UInt8
        var role: Role
        var callee: Callee = .other
        var argIndex = 0
        var arg0Tokens = 0
        var arg0String: ScriptToken?
        var loadEvent = false
        var isCatch = false
        var wrapsFunction = false
        /// A function body of a declaration (`function go() {…}` as a statement), which cannot be invoked in place.
        var isDeclaration = false
        var scope = -1
        var lookback = Lookback()
    }

    private struct PendingFunction {
        var lookback: Lookback
        var rule: Rule
        var name: String?
        var paramsClosed = false
        var sawParams = false
    }

    private enum IIFEStage {
        case afterBody, afterGroup, dot, needParen
    }

    private struct PendingRedirect {
        var scope: Int
        var text: String
        var requireClose: Bool
        var expectingString = false
    }

    private struct ClosedParen {
        var end: Int
        var role: Role
        var isCatch: Bool
        var lookback: Lookback
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let targets: Targets
    let depth: Int
    private(set) var scopes: [Scope] = [Scope(parent: -1, activation: .runs)]
    private(set) var candidates: [Candidate] = []
    /// With target ``Targets/references``: each name referred to (other than where it is defined), and the scope it is in.
    private(set) var references: [(name: String, scope: Int)] = []
    private var pendingReference: (token: ScriptToken, before: ScriptToken, scope: Int)?

    private var frames: [Frame] = []
    private var scopeStack: [Int] = [0]
    private var expressionArrows: [(depth: Int, scope: Int)] = []
    private var ring = [ScriptToken](repeating: .none, count: 16)
    private var tokenCount = 0
    private var pendingFunction: PendingFunction?
    private var pendingArrow: (rule: Rule, wraps: Bool)?
    private var pendingIIFE: (scope: Int, stage: IIFEStage)?
    private var pendingRedirect: PendingRedirect?
    private var lastClosedParen: ClosedParen?

    /// Nested timer strings are read up to this depth.
    static let maximumDepth = 3

    /// Whether the script asks if its page is framed (``ScriptReading/comparesFrames(_:)``), worked out the first time
    /// a move of the top or parent frame is met: such a move is then a frame-buster's, which never runs headless.
    private var framesCompared: Bool?
    private var comparesFrames: Bool {
        mutating get {
            if let framesCompared { return framesCompared }
            let found = ScriptReading.comparesFrames(String(decoding: bytes, as: UTF8.self))
            framesCompared = found
            return found
        }
    }

    init(bytes: UnsafeBufferPointer<UInt8>, targets: Targets, depth: Int = 0) {
        self.bytes = bytes
        self.targets = targets
        self.depth = depth
    }

    // MARK: Results

    /// What the pass found, kept after the script's bytes are gone.
    var result: ScriptScan { ScriptScan(scopes: scopes, candidates: candidates, references: references) }

    /// The first candidate `pick` accepts whose code runs on load.
    func firstRunning<Value>(isInvoked: (String) -> Bool, _ pick: (Found) -> Value?) -> Value? {
        result.firstRunning(isInvoked: isInvoked, pick)
    }

    /// The candidates `pick` accepts whose code runs on load, in order, at most `limit`.
    func running<Value>(isInvoked: (String) -> Bool, limit: Int = .max, _ pick: (Found) -> Value?) -> [Value] {
        result.running(isInvoked: isInvoked, limit: limit, pick)
    }

    // MARK: Scanning

    private var currentScope: Int { scopeStack[scopeStack.count - 1] }

    @inline(__always) private func back(_ distance: Int) -> ScriptToken {
        guard distance <= tokenCount, distance <= 16 else { return .none }
        return ring[(tokenCount - distance) & 15]
    }

    private func lookback(from distance: Int) -> Lookback {
        Lookback(t1: back(distance), t2: back(distance + 1), t3: back(distance + 2), t4: back(distance + 3))
    }

    private func word(_ token: ScriptToken, _ text: StaticString) -> Bool { ScriptWords.equals(bytes, token, text) }

    mutating func run() {
        var lexer = ScriptLexer(bytes: bytes)
        while true {
            let token = lexer.next()
            if token.kind == .end { break }
            process(token)
            ring[tokenCount & 15] = token
            tokenCount += 1
        }
        if let pending = pendingReference {
            recordReference(pending.token, scope: pending.scope, next: .none)
            pendingReference = nil
        }
        if let pending = pendingRedirect, !pending.expectingString, !pending.requireClose {
            candidates.append(Candidate(scope: pending.scope, found: .redirect(pending.text)))
        }
        pendingRedirect = nil
    }

    private mutating func process(_ token: ScriptToken) {
        if let pending = pendingReference {
            pendingReference = nil
            let assigned = token.isPunctuator(UInt8(ascii: "="))
            let key =
                token.isPunctuator(UInt8(ascii: ":"))
                && (pending.before.isPunctuator(UInt8(ascii: "{")) || pending.before.isPunctuator(UInt8(ascii: ",")))
            if !assigned && !key { recordReference(pending.token, scope: pending.scope, next: token) }
        }
        if pendingRedirect != nil { continueRedirect(token) }
        if pendingIIFE != nil { continueIIFE(token) }
        if let arrow = pendingArrow {
            pendingArrow = nil
            if !token.isPunctuator(UInt8(ascii: "{")) {
                let scope = openScope(activation(arrow.rule, name: nil))
                expressionArrows.append((frames.count, scope))
                if arrow.wraps, !frames.isEmpty { frames[frames.count - 1].wrapsFunction = true }
            } else {
                openFunctionBody(rule: arrow.rule, name: nil)
                return
            }
        }
        if !frames.isEmpty {
            let top = frames.count - 1
            if frames[top].role == .call && frames[top].argIndex == 0
                && !token.isPunctuator(UInt8(ascii: ",")) && !token.isPunctuator(UInt8(ascii: ")"))
            {
                frames[top].arg0Tokens += 1
                if frames[top].arg0Tokens == 1 && token.kind == .string { frames[top].arg0String = token }
            }
        }
        if var function = pendingFunction, !function.sawParams {
            if token.kind == .identifier && function.name == nil && !ScriptWords.isReserved(bytes, token) {
                function.name = ScriptWords.string(bytes, token)
                pendingFunction = function
                return
            }
            if token.isPunctuator(UInt8(ascii: "*")) { return }
            if !token.isPunctuator(UInt8(ascii: "(")) { pendingFunction = nil }
        } else if let function = pendingFunction, function.paramsClosed, !token.isPunctuator(UInt8(ascii: "{")) {
            pendingFunction = nil
        }

        switch token.kind {
        case .identifier:
            if word(token, "function") {
                startFunction()
            } else if targets.contains(.references) && !ScriptWords.isReserved(bytes, token) {
                pendingReference = (token, back(1), currentScope)
            }
        case .string, .template:
            if targets.contains(.redirects) && token.kind == .string && token.terminated { checkRedirect(at: token) }
            if targets.contains(.references) { recordCalls(in: token) }
        case .punctuator:
            switch token.code {
            case UInt8(ascii: "("):
                if targets.contains(.submissions) { checkSubmission() }
                openParen()
            case UInt8(ascii: "["):
                pushFrame(Frame(opener: UInt8(ascii: "["), role: .array))
            case UInt8(ascii: "{"):
                openBrace()
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if targets.contains(.contentLoads) && token.code == UInt8(ascii: ")") { checkContentLoad() }
                close(token)
            case UInt8(ascii: ","):
                endExpressionArrows(atDepth: frames.count)
                comma()
            case UInt8(ascii: ";"):
                endExpressionArrows(atDepth: frames.count)
            case ScriptLexer.Code.arrow:
                startArrow()
            default:
                break
            }
        default:
            break
        }
    }

    // MARK: Frames and scopes

    private mutating func pushFrame(_ frame: Frame) {
        frames.append(frame)
    }

    private mutating func openScope(_ activation: Activation) -> Int {
        scopes.append(Scope(parent: currentScope, activation: activation))
        scopeStack.append(scopes.count - 1)
        return scopes.count - 1
    }

    private func activation(_ rule: Rule, name: String?) -> Activation {
        switch rule {
        case .runs: .runs
        case .never: .never
        case .named(let name): .ifCalled(name)
        case .ownName: name.map { .ifCalled($0) } ?? .never
        }
    }

    private mutating func openFunctionBody(rule: Rule, name: String?) {
        let scope = openScope(activation(rule, name: name))
        var frame = Frame(opener: UInt8(ascii: "{"), role: .functionBody, scope: scope)
        if case .ownName = rule, name != nil { frame.isDeclaration = true }
        pushFrame(frame)
    }

    private mutating func endExpressionArrows(atDepth depth: Int) {
        while let last = expressionArrows.last, last.depth >= depth {
            expressionArrows.removeLast()
            if scopeStack.count > 1 && scopeStack[scopeStack.count - 1] == last.scope { scopeStack.removeLast() }
        }
    }

    private mutating func close(_ token: ScriptToken) {
        let opener: UInt8 =
            switch token.code {
            case UInt8(ascii: ")"): UInt8(ascii: "(")
            case UInt8(ascii: "]"): UInt8(ascii: "[")
            default: UInt8(ascii: "{")
            }
        // Garbage may close what is not open: look a few frames down for the opener, else ignore the closer.
        var found = -1
        var index = frames.count - 1
        while index >= 0 && index >= frames.count - 8 {
            if frames[index].opener == opener {
                found = index
                break
            }
            index -= 1
        }
        guard found >= 0 else { return }
        while frames.count > found + 1 { popFrame() }
        if opener == UInt8(ascii: "(") && frames[found].role == .call && frames[found].argIndex == 0 {
            finishFirstArgument(of: found)
        }
        let frame = frames[found]
        // An expression-bodied arrow ends with the bracket around it; a wrapped one may be invoked right after.
        if let last = expressionArrows.last, last.depth == found + 1, frame.role == .group, frame.wrapsFunction {
            pendingIIFE = (last.scope, .afterGroup)
        }
        popFrame()
        if opener == UInt8(ascii: "(") {
            lastClosedParen = ClosedParen(
                end: token.start, role: frame.role, isCatch: frame.isCatch, lookback: frame.lookback)
            if frame.role == .params, pendingFunction != nil { pendingFunction?.paramsClosed = true }
        }
        if frame.role == .functionBody && !frame.isDeclaration { pendingIIFE = (frame.scope, .afterBody) }
    }

    private mutating func popFrame() {
        guard !frames.isEmpty else { return }
        endExpressionArrows(atDepth: frames.count)  // the arrows written inside the frame end with it
        let frame = frames.removeLast()
        if frame.scope >= 0, scopeStack.count > 1, scopeStack[scopeStack.count - 1] == frame.scope {
            scopeStack.removeLast()
        }
    }

    private mutating func comma() {
        guard !frames.isEmpty else { return }
        let top = frames.count - 1
        if frames[top].role == .call && frames[top].argIndex == 0 { finishFirstArgument(of: top) }
        frames[top].argIndex += 1
    }

    /// At the end of a call's first argument: a lone string names the event of a listener, or is code for a timer.
    private mutating func finishFirstArgument(of index: Int) {
        guard frames[index].arg0Tokens == 1, let string = frames[index].arg0String else { return }
        switch frames[index].callee {
        case .listener:
            let name = ScriptStrings.value(bytes, string)
            frames[index].loadEvent = [
                "load", "onload", "DOMContentLoaded", "pageshow", "onpageshow", "readystatechange",
                "onreadystatechange", "ready",
            ].contains(name)
        case .timer:
            if depth < Self.maximumDepth { readCode(in: string) }
        default:
            break
        }
    }

    /// Reads the string `token` as code running where the string is (a timer's code argument).
    private mutating func readCode(in token: ScriptToken) {
        let code = ScriptStrings.value(bytes, token)
        let inner = ScriptStrings.withBytes(code) { innerBytes -> ScriptScanner in
            var scanner = ScriptScanner(bytes: innerBytes, targets: targets, depth: depth + 1)
            scanner.run()
            return scanner
        }
        guard !inner.candidates.isEmpty || !inner.references.isEmpty else { return }
        let base = scopes.count - 1
        let outer = currentScope
        func map(_ scope: Int) -> Int { scope == 0 ? outer : base + scope }
        for scope in inner.scopes.dropFirst() {
            scopes.append(Scope(parent: map(scope.parent), activation: scope.activation))
        }
        for candidate in inner.candidates {
            candidates.append(Candidate(scope: map(candidate.scope), found: candidate.found))
        }
        for reference in inner.references {
            references.append((reference.name, map(reference.scope)))
        }
    }

    /// A name referred to. A name handed over as a whole argument or value (`setTimeout(go, 0)`,
    /// `window.onload = go`, `register('click', go)`, `x.y = go`) is as good as a function written there: it runs
    /// by the same rules, so the reference sits in a scope of its own with that activation.
    private mutating func recordReference(_ name: ScriptToken, scope: Int, next: ScriptToken) {
        let text = ScriptWords.string(bytes, name)
        let context = lookback(from: 2)  // `name` is the last token seen; `next` is not in the ring yet
        let before = context.t1
        let handedOver =
            (before.isPunctuator(UInt8(ascii: "(")) || before.isPunctuator(UInt8(ascii: ","))
                || before.isPunctuator(UInt8(ascii: "=")) || before.isPunctuator(UInt8(ascii: ":")))
            && (next.kind == .end || next.newlineBefore || next.isPunctuator(UInt8(ascii: ","))
                || next.isPunctuator(UInt8(ascii: ")")) || next.isPunctuator(UInt8(ascii: ";"))
                || next.isPunctuator(UInt8(ascii: "}")))
        guard handedOver, scope == currentScope else {
            references.append((text, scope))
            return
        }
        scopes.append(Scope(parent: scope, activation: activation(rule(for: context), name: nil)))
        references.append((text, scopes.count - 1))
    }

    /// `name(` inside a string: the names code in the string would call (timer code, markup with handlers).
    private mutating func recordCalls(in token: ScriptToken) {
        var index = token.start
        let end = token.end
        while index < end {
            guard ScriptLexer.isIdentifierStart(bytes[index]), bytes[index] != UInt8(ascii: "\\"),
                index == token.start || !ScriptLexer.isIdentifierPart(bytes[index - 1])
            else {
                index += 1
                continue
            }
            let nameStart = index
            while index < end && ScriptLexer.isIdentifierPart(bytes[index]) && bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            var after = index
            while after < end && (bytes[after] == 0x20 || bytes[after] == 0x09) { after += 1 }
            if after < end && bytes[after] == UInt8(ascii: "(") {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
                references.append((name, currentScope))
            }
        }
    }

    // MARK: Brackets

    private mutating func openParen() {
        let before = back(1)
        if var function = pendingFunction, !function.sawParams {
            function.sawParams = true
            pendingFunction = function
            pushFrame(Frame(opener: UInt8(ascii: "("), role: .params, lookback: lookback(from: 1)))
            return
        }
        var frame = Frame(opener: UInt8(ascii: "("), role: .group, lookback: lookback(from: 1))
        switch before.kind {
        case .identifier:
            if ScriptWords.isReserved(bytes, before) {
                if ScriptWords.isAny(bytes, before, ScriptWords.control) {
                    frame.role = .control
                    frame.isCatch = word(before, "catch")
                }
            } else {
                frame.role = .call
                frame.callee = callee()
            }
        case .punctuator:
            if before.code == UInt8(ascii: ")") || before.code == UInt8(ascii: "]") { frame.role = .call }
        case .template:
            frame.role = .call
        default:
            break
        }
        pushFrame(frame)
    }

    /// What the callee of the call opening now does with its arguments (the tokens before the `(`).
    private func callee() -> Callee {
        let name = back(1)
        let hasReceiver = back(2).isPunctuator(UInt8(ascii: "."))
        if ScriptWords.isAny(
            bytes, name, ScriptWords.timers)
        {
            return .timer
        }
        if !hasReceiver && (word(name, "$") || word(name, "jQuery")) { return .onReady }
        if hasReceiver && word(name, "ready") { return .onReady }
        if word(name, "addEventListener") || word(name, "attachEvent") {
            if !hasReceiver { return .listener }
            let receiver = back(3)
            if ScriptWords.isAny(bytes, receiver, ScriptWords.listenerReceivers)
                && !back(4).isPunctuator(UInt8(ascii: "."))
            {
                return .listener
            }
            return .other
        }
        // jQuery on the window or the document: $(window).on('load', …), $(window).load(…).
        if hasReceiver && back(3).isPunctuator(UInt8(ascii: ")"))
            && ScriptWords.isAny(bytes, back(4), ScriptWords.windowOrDocument)
            && back(5).isPunctuator(UInt8(ascii: "("))
            && (word(back(6), "$") || word(back(6), "jQuery"))
        {
            if word(name, "load") { return .onReady }
            if ScriptWords.isAny(bytes, name, ScriptWords.jQueryListeners) { return .listener }
        }
        return .other
    }

    private mutating func openBrace() {
        let before = back(1)
        if let function = pendingFunction {
            if function.paramsClosed {
                pendingFunction = nil
                openFunctionBody(rule: function.rule, name: function.name)
                return
            }
            if !function.sawParams { pendingFunction = nil }
        }
        var role = Role.object
        switch before.kind {
        case .end:
            role = .block
        case .punctuator:
            switch before.code {
            case UInt8(ascii: ")"):
                role = .block
                if let closed = lastClosedParen, closed.end == before.start {
                    if closed.role == .control && closed.isCatch {
                        let scope = openScope(.never)
                        pushFrame(Frame(opener: UInt8(ascii: "{"), role: .catchBody, scope: scope))
                        return
                    }
                    let top = frames.last?.role
                    if closed.role == .call && (top == .object || top == .classBody) {
                        let name = closed.lookback.t1
                        openFunctionBody(
                            rule: name.kind == .identifier ? .named(ScriptWords.string(bytes, name)) : .never,
                            name: nil)
                        return
                    }
                }
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                role = .block
            case UInt8(ascii: ":"):
                role = frames.last?.role == .object ? .object : .block
            default:
                role = .object
            }
        case .identifier:
            if word(before, "catch") {
                let scope = openScope(.never)
                pushFrame(Frame(opener: UInt8(ascii: "{"), role: .catchBody, scope: scope))
                return
            }
            if ScriptWords.isAny(bytes, before, ScriptWords.blockHeads) {
                role = .block
            } else if ScriptWords.isExpressionKeyword(bytes, before) {
                role = .object
            } else {
                role = .classBody
            }
        default:
            role = .object
        }
        pushFrame(Frame(opener: UInt8(ascii: "{"), role: role))
    }

    // MARK: Functions

    private mutating func startFunction() {
        var distance = 1
        if word(back(1), "async") { distance = 2 }
        let context = lookback(from: distance)
        pendingFunction = PendingFunction(lookback: context, rule: rule(for: context))
        noteWrapping(context)
    }

    private mutating func startArrow() {
        let before = back(1)
        var context: Lookback
        if before.isPunctuator(UInt8(ascii: ")")), let closed = lastClosedParen, closed.end == before.start {
            context = closed.lookback
            if word(context.t1, "async") { context = Lookback(t1: context.t2, t2: context.t3, t3: context.t4) }
        } else if before.kind == .identifier {
            context = lookback(from: word(back(2), "async") ? 3 : 2)
        } else {
            return
        }
        let wraps =
            context.t1.isPunctuator(UInt8(ascii: "(")) && frames.last?.role == .group
        pendingArrow = (rule(for: context), wraps)
        if wraps { frames[frames.count - 1].wrapsFunction = true }
    }

    /// A function written right inside a grouping paren: `(function(){…})()` invokes it.
    private mutating func noteWrapping(_ context: Lookback) {
        if context.t1.isPunctuator(UInt8(ascii: "(")), let top = frames.last, top.role == .group {
            frames[frames.count - 1].wrapsFunction = true
        }
    }

    private func rule(for context: Lookback) -> Rule {
        let before = context.t1
        if word(before, "new") { return .runs }
        if before.kind == .punctuator {
            switch before.code {
            case UInt8(ascii: "("), UInt8(ascii: ","):
                if let top = frames.last, top.role == .call { return callbackRule(top) }
                return .never
            case UInt8(ascii: "="):
                return assignmentRule(target: context.t2, dot: context.t3, receiver: context.t4)
            case UInt8(ascii: ":"):
                if frames.last?.role == .object {
                    let key = context.t2
                    if key.kind == .identifier { return .named(ScriptWords.string(bytes, key)) }
                    if key.kind == .string { return .named(ScriptStrings.value(bytes, key)) }
                }
                return .never
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                return .ownName
            default:
                return .never
            }
        }
        if before.kind == .end { return .ownName }
        if ScriptWords.isAny(bytes, before, ScriptWords.declarationHeads) { return .ownName }
        if before.kind == .identifier && !ScriptWords.isReserved(bytes, before) { return .ownName }  // after ASI
        return .never
    }

    private func callbackRule(_ frame: Frame) -> Rule {
        switch frame.callee {
        case .timer, .onReady: frame.argIndex == 0 ? .runs : .never
        case .listener: frame.argIndex == 1 && frame.loadEvent ? .runs : .never
        case .other: .never
        }
    }

    private func assignmentRule(target: ScriptToken, dot: ScriptToken, receiver: ScriptToken) -> Rule {
        guard target.kind == .identifier else { return .never }
        let name = ScriptWords.string(bytes, target)
        let onWindow: Bool
        if dot.isPunctuator(UInt8(ascii: ".")) {
            onWindow = ScriptWords.isAny(bytes, receiver, ScriptWords.onloadReceivers)
        } else {
            onWindow = true
        }
        switch name {
        case "onload", "onpageshow": return onWindow ? .runs : .never
        case "onreadystatechange":
            return dot.isPunctuator(UInt8(ascii: ".")) && word(receiver, "document") ? .runs : .never
        default: return .named(name)
        }
    }

    private mutating func continueIIFE(_ token: ScriptToken) {
        guard let (scope, stage) = pendingIIFE else { return }
        pendingIIFE = nil
        switch stage {
        case .afterBody, .afterGroup:
            if token.isPunctuator(UInt8(ascii: "(")) {
                scopes[scope].activation = .runs
            } else if token.isPunctuator(UInt8(ascii: ".")) {
                pendingIIFE = (scope, .dot)
            } else if stage == .afterBody && token.isPunctuator(UInt8(ascii: ")")),
                let top = frames.last, top.role == .group, top.wrapsFunction
            {
                pendingIIFE = (scope, .afterGroup)
            }
        case .dot:
            if word(token, "call") || word(token, "apply") { pendingIIFE = (scope, .needParen) }
        case .needParen:
            if token.isPunctuator(UInt8(ascii: "(")) { scopes[scope].activation = .runs }
        }
    }

    // MARK: Redirects

    /// Whether the `location` at distance `distance` is the window's: alone, or after a chain of
    /// `window.`/`self.`/`top.`/`parent.`/`document.` that is not itself a member of something else.
    private mutating func isWindowLocation(at distance: Int) -> Bool {
        guard word(back(distance), "location") else { return false }
        var offset = distance + 1
        while back(offset).isPunctuator(UInt8(ascii: ".")) {
            guard offset + 1 < 16,
                ScriptWords.isAny(bytes, back(offset + 1), ScriptWords.locationOwners)
            else { return false }
            // A frame-buster moves the top (or parent) frame only when the page is framed (`if (self != top)`);
            // a sign-in run headless is never framed, so that move never runs.
            if ScriptWords.isAny(bytes, back(offset + 1), ScriptWords.outerFrames), comparesFrames {
                return false
            }
            offset += 2
        }
        return true
    }

    private mutating func checkRedirect(at token: ScriptToken) {
        let before = back(1)
        guard before.kind == .punctuator else { return }
        if before.code == UInt8(ascii: "=") {
            let assigned = back(2)
            let isLocation: Bool
            if word(assigned, "href") {
                isLocation = back(3).isPunctuator(UInt8(ascii: ".")) && isWindowLocation(at: 4)
            } else {
                isLocation = isWindowLocation(at: 2)
            }
            guard isLocation else { return }
            pendingRedirect = PendingRedirect(
                scope: currentScope, text: ScriptStrings.value(bytes, token), requireClose: false)
        } else if before.code == UInt8(ascii: "(") {
            guard ScriptWords.isAny(bytes, back(2), ScriptWords.locationMethods),
                back(3).isPunctuator(UInt8(ascii: ".")),
                isWindowLocation(at: 4)
            else { return }
            pendingRedirect = PendingRedirect(
                scope: currentScope, text: ScriptStrings.value(bytes, token), requireClose: true)
        }
    }

    /// A literal is the whole value only when what follows does not continue the expression (`+ 'more'` is joined).
    private mutating func continueRedirect(_ token: ScriptToken) {
        guard var pending = pendingRedirect else { return }
        pendingRedirect = nil
        if pending.expectingString {
            guard token.kind == .string && token.terminated else { return }
            pending.text += ScriptStrings.value(bytes, token)
            pending.expectingString = false
            pendingRedirect = pending
            return
        }
        if token.isPunctuator(UInt8(ascii: "+")) {
            pending.expectingString = true
            pendingRedirect = pending
            return
        }
        if pending.requireClose {
            guard token.isPunctuator(UInt8(ascii: ")")) else { return }
        } else {
            switch token.kind {
            case .template:
                // The end of a template substitution (`${location = '…'}`) ends the expression too.
                guard bytes[token.start] == UInt8(ascii: "}") else { return }
            case .string, .number, .regex: return
            case .punctuator:
                let continues: [UInt8] = [
                    UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "?"), UInt8(ascii: "*"),
                    UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "%"), ScriptLexer.Code.logical,
                    ScriptLexer.Code.otherOperator, UInt8(ascii: "<"), UInt8(ascii: ">"), ScriptLexer.Code.equality,
                    ScriptLexer.Code.inequality, UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"),
                ]
                if continues.contains(token.code) { return }
            case .identifier:
                if !token.newlineBefore { return }  // `'x' in y`, `'x' instanceof…`: not a plain value
            case .end:
                break
            }
        }
        candidates.append(Candidate(scope: pending.scope, found: .redirect(pending.text)))
    }

    // MARK: Content loads

    /// At a `)`: a call of exactly two string literals (`getToContent('/login?id=…', 'content')`), or jQuery's
    /// `$('#id').load('url')`. Which literal is the element and which the URL is left to the page.
    private mutating func checkContentLoad() {
        func isString(_ token: ScriptToken) -> Bool { token.kind == .string && token.terminated }
        if isString(back(1)), back(2).isPunctuator(UInt8(ascii: ",")), isString(back(3)),
            back(4).isPunctuator(UInt8(ascii: "(")), back(5).kind == .identifier,
            !ScriptWords.isReserved(bytes, back(5))
        {
            candidates.append(
                Candidate(
                    scope: currentScope,
                    found: .contentLoad(ScriptStrings.value(bytes, back(3)), ScriptStrings.value(bytes, back(1)))))
            return
        }
        if isString(back(1)), back(2).isPunctuator(UInt8(ascii: "(")), word(back(3), "load"),
            back(4).isPunctuator(UInt8(ascii: ".")), back(5).isPunctuator(UInt8(ascii: ")")), isString(back(6)),
            back(7).isPunctuator(UInt8(ascii: "(")), word(back(8), "$") || word(back(8), "jQuery")
        {
            let selector = ScriptStrings.value(bytes, back(6))
            guard selector.hasPrefix("#") else { return }
            candidates.append(
                Candidate(
                    scope: currentScope,
                    found: .contentLoad(String(selector.dropFirst()), ScriptStrings.value(bytes, back(1)))))
        }
    }

    // MARK: Submissions

    /// At a `(`: `….submit(`, `….requestSubmit(` or `….click(` on a form or element the document names.
    private mutating func checkSubmission() {
        let method = back(1)
        guard back(2).isPunctuator(UInt8(ascii: ".")) else { return }
        let isClick = word(method, "click")
        guard isClick || word(method, "submit") || word(method, "requestSubmit") else { return }
        let object = back(3)
        var found: ScriptSubmission?
        func isDocument(at distance: Int) -> Bool {
            guard word(back(distance), "document") else { return false }
            var offset = distance + 1
            while back(offset).isPunctuator(UInt8(ascii: ".")) {
                guard offset + 1 < 16, ScriptWords.isAny(bytes, back(offset + 1), ScriptWords.windows)
                else { return false }
                offset += 2
            }
            return true
        }
        if object.isPunctuator(UInt8(ascii: "]")) {
            // document.forms[0] / document.forms['name']
            let key = back(4)
            guard !isClick, back(5).isPunctuator(UInt8(ascii: "[")), word(back(6), "forms"),
                back(7).isPunctuator(UInt8(ascii: ".")), isDocument(at: 8)
            else { return }
            if key.kind == .number, let index = Int(ScriptWords.string(bytes, key)) {
                found = .form(.index(index))
            } else if key.kind == .string && key.terminated {
                found = .form(.name(ScriptStrings.value(bytes, key)))
            }
        } else if object.kind == .identifier {
            guard !isClick, back(4).isPunctuator(UInt8(ascii: ".")) else { return }
            let name = ScriptWords.string(bytes, object)
            if word(back(5), "forms") && back(6).isPunctuator(UInt8(ascii: ".")) && isDocument(at: 7) {
                found = .form(.name(name))  // document.forms.name
            } else if isDocument(at: 5)
                && !["forms", "body", "documentElement", "activeElement", "head", "all"].contains(name)
            {
                found = .form(.name(name))  // document.name
            }
        } else if object.isPunctuator(UInt8(ascii: ")")) {
            let argument = back(4)
            guard argument.kind == .string, argument.terminated, back(5).isPunctuator(UInt8(ascii: "(")) else {
                return
            }
            let text = ScriptStrings.value(bytes, argument)
            let function = back(6)
            if word(function, "getElementById") && back(7).isPunctuator(UInt8(ascii: ".")) && isDocument(at: 8) {
                found = isClick ? .click(id: text) : .form(.id(text))
            } else if (word(function, "querySelector") && back(7).isPunctuator(UInt8(ascii: "."))
                && isDocument(at: 8))
                || ((word(function, "$") || word(function, "jQuery")) && !back(7).isPunctuator(UInt8(ascii: ".")))
            {
                found = Self.selectorSubmission(text, isClick: isClick)
            }
        }
        if let found { candidates.append(Candidate(scope: currentScope, found: .submission(found))) }
    }

    /// `#id` (an id of plain name characters) or `form` as a selector.
    static func selectorSubmission(_ selector: String, isClick: Bool) -> ScriptSubmission? {
        let trimmed = selector.trimmingASCIIWhitespace()
        if !isClick && (trimmed == "form" || trimmed == "form:first") { return .form(.index(0)) }
        guard trimmed.hasPrefix("#") else { return nil }
        let id = String(trimmed.dropFirst())
        guard !id.isEmpty,
            id.utf8.allSatisfy({
                ScriptLexer.isIdentifierPart($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":")
            })
        else { return nil }
        return isClick ? .click(id: id) : .form(.id(id))
    }
}
