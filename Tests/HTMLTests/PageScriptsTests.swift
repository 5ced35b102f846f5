import Testing

@testable import HTML

/// ``PageScripts`` reads each piece of a page's code once and answers whether a function runs from the pieces that can
/// bear on it; its answers must be ``ScriptReferences``'s, which reads every piece.
@Suite("A page's scripts read once")
struct PageScriptsTests {
    /// Every name the pieces declare or refer to (at most `limit`), in a fixed order.
    func names(in code: [String], limit: Int = 300) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for text in code {
            let scan = ScriptStrings.withBytes(text) { bytes -> ScriptScan in
                var scanner = ScriptScanner(bytes: bytes, targets: .references)
                scanner.run()
                return scanner.result
            }
            for scope in scan.scopes {
                if case .ifCalled(let name) = scope.activation, seen.insert(name).inserted { names.append(name) }
            }
            for reference in scan.references where seen.insert(reference.name).inserted { names.append(reference.name) }
        }
        return Array(names.prefix(limit))
    }

    /// The answers for the declared functions first, then other names referred to (at most `limit` names), each asked
    /// of a page's scripts read for that name alone, and asked in turn of one reading.
    func expectSameAnswers(_ code: [String], _ label: String, limit: Int = 300) {
        let reference = ScriptReferences(code: code)
        let shared = PageScripts(javaScripts: code, onload: nil, hasForms: true)
        for (position, name) in (names(in: code, limit: limit) + ["neverWritten", "go"]).enumerated() {
            if position < 8 {
                let fresh = PageScripts(javaScripts: code, onload: nil, hasForms: true)
                #expect(fresh.isInvoked(name) == reference.contains(name), "\(label): \(name)")
            }
            #expect(shared.isInvoked(name) == reference.contains(name), "\(label): \(name), asked after others")
        }
    }

    @Test(
        "functions called directly, through other functions, by timers, by escaped timer code, or never",
        arguments: [
            ["function go() { document.forms[0].submit(); }", "go();"],
            ["function go() { step(); } function step() { x(); }", "window.onload = go;"],
            ["function go() { a(); }", "function a() { go(); }"],
            ["function go() {}", "setTimeout('\\x67o()', 10);"],
            ["function go() {}", "setTimeout(\"g\" + \"o()\", 10);"],
            ["function go() {}", "button.onclick = function () { go(); };"],
            ["var go = function () {}; $(function () { go(); });", ""],
            ["function outer() { function go() {} go(); }", "outer();"],
            ["function go() {}", "setTimeout('setTimeout(\"\\\\x67o()\", 1)', 1);"],
        ])
    func handWritten(_ code: [String]) {
        expectSameAnswers(code, code.joined(separator: " | "))
    }

    @Test("the scripts of every corpus page")
    func corpusPages() throws {
        guard Corpus.isAvailable else {
            print("skipped: \(Corpus.skipMessage)")
            return
        }
        for file in Corpus.fileNames {
            let page = try Corpus.page(file)
            guard !page.scripts.isEmpty else { continue }
            expectSameAnswers(page.scripts, file, limit: 40)
        }
    }
}

@Suite("Byte searches by a word's rarer end")
struct RareEndSearchTests {
    @Test("a word found by its end is there only when its opening bytes come right before it")
    func headThenTail() {
        func has(_ text: String) -> Bool {
            ScriptStrings.withBytes(text) { ScriptStrings.contains($0, "ur", then: "lPost") }
        }
        #expect(has("urlPost"))
        #expect(has("var a = {\"urlPost\": \"/x\"}; // lPost"))
        #expect(has("xlPost urlPost"))
        #expect(!has("lPost"))
        #expect(!has("uRlPost"))
        #expect(!has("u lPost"))
        #expect(!has(""))
    }
}

@Suite("Which script types are JavaScript")
struct ScriptTypeTests {
    @Test(
        "a type is JavaScript when it is absent, blank, a JavaScript or ECMAScript type in any case, or a module",
        arguments: [
            (nil, true), ("", true), ("  \t", true), ("text/javascript", true), (" TEXT/JavaScript ", true),
            ("application/ecmascript", true), ("text/jscript", true), ("module", true), ("MODULE", true),
            (" module\n", true), ("modules", false), ("text/template", false), ("application/json", false),
            ("text/x-handlebars", false), ("text/jávascript", false), ("Text/JAVASCRİPT", false),
            ("application/ld+json", false),
        ] as [(String?, Bool)])
    func types(_ type: String?, _ expected: Bool) {
        #expect(PageReader.isJavaScript(type) == expected, "\(type ?? "nil")")
    }
}
