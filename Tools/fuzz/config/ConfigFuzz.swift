import AuthFlowCore
import FuzzSupport
import JSON

// Fuzz target: Entra ID's `$Config` extraction and the other script readers (Modules/HTML/ScriptReading.swift).
//
// The input is script text (a whole page works too: the readers scan for their idioms anywhere). Oracles:
// - a `$Config` value is an object with no repeated member name at any depth (JavaScript's last-value-wins is
//   applied), and applying that rule again changes nothing;
// - `matchingBrace` returns the index of a `}`; function bodies lie inside the text, each starting at a `{`;
// - a script wrapped in `<script>` and read as a page yields the same `$Config`.
@testable import HTML

func fuzzConfig(_ bytes: [UInt8]) {
    let script = Fuzz.text(bytes)
    let utf8 = Array(script.utf8)

    let config = ScriptReading.config(in: script)
    if let config {
        Fuzz.check(config.objectValue != nil, "$Config is not an object: \(config)")
        Fuzz.check(hasNoRepeatedNames(config), "$Config keeps a repeated member name")
        Fuzz.check(ScriptReading.lastValueWins(config) == config, "last-value-wins is not idempotent")
        let aad = AADConfig(raw: config)
        _ = (aad.pgid, aad.urlPost, aad.flowTokenName, aad.flowToken, aad.context, aad.canary, aad.canaryTokenName)
        _ = (aad.errorCode, aad.errorText, aad.proofMethods)
    }

    // The first few openings are enough per input (each scan may run to the end of the text).
    for start in utf8.indices.filter({ utf8[$0] == UInt8(ascii: "{") }).prefix(8) {
        if let end = ScriptReading.matchingBrace(utf8, from: start) {
            Fuzz.check(end > start && end < utf8.count && utf8[end] == UInt8(ascii: "}"), "matchingBrace gave \(end)")
        }
    }

    let bodies = ScriptReading.declaredFunctionBodies(in: script)
    for (name, body) in bodies {
        Fuzz.check(!name.isEmpty, "a function body without a name")
        Fuzz.check(
            body.lowerBound >= 0 && body.upperBound <= utf8.count && utf8[body.lowerBound] == UInt8(ascii: "{"),
            "function \(name) body \(body) in \(utf8.count) bytes")
        _ = ScriptReading.references(name, in: script)
    }
    let invoked = PageReader.invocationCheck(code: [script])
    _ = ScriptReading.redirectTarget(in: script, isInvoked: invoked)
    _ = ScriptReading.submittedForm(in: script, isInvoked: invoked)
    _ = ScriptReading.unescapeJavaScript(script)

    // The same text as a page's only script: the page reader finds the same `$Config` (when libxml2 keeps the
    // script text whole: no `</script` inside, valid UTF-8 so the bytes are the text).
    if !script.lowercased().contains("</script"), String(validating: bytes, as: UTF8.self) != nil,
        !bytes.contains(0)
    {
        let page = try? HTMLPage(
            html: "<html><head><script>" + script + "</script></head><body></body></html>",
            url: "https://login.microsoftonline.com/common/login")
        if let page, page.scripts.count == 1, page.scripts[0] == script {
            Fuzz.check(page.aadConfig?.raw == config, "the page's $Config differs from the script's")
        }
    }
}

func hasNoRepeatedNames(_ value: JSONValue) -> Bool {
    switch value {
    case .array(let elements): return elements.allSatisfy(hasNoRepeatedNames)
    case .object(let members):
        return Set(members.map(\.0)).count == members.count && members.allSatisfy { hasNoRepeatedNames($0.1) }
    default: return true
    }
}

@main enum Main {
    static func main() { Fuzz.main(fuzzConfig) }
}
