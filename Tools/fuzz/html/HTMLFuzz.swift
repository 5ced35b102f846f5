import AuthFlow
import FuzzSupport

// Fuzz target: reading a page the way AuthFlow does (Modules/HTML), then building every form's submissions.
//
// The input is the response body; it is read as `PageFactsReader` reads it (`HTMLPage(bytes:url:charset:)`, the
// classification, the form accessors) and every form is submitted without a submitter, by each of its submit
// buttons, and with credential overrides. Oracles:
// - forms and controls are numbered by position; submitting never fails (the base URL is absolute) and the target
//   URL is absolute;
// - an urlencoded body (POST) or query (GET) decodes back to the entries (newlines normalised to CRLF); a text/plain
//   body is the entries' lines; a multipart body ends with its closing boundary and has a part per entry;
// - an override reaches the entries; the clicked button is the only submit button sent;
// - the tree built from libxml2's parse events is the tree libxml2 builds itself (`LibXMLTreeReading`).
@testable import HTML

let pageURL = "https://login.example.com/adfs/ls/?wa=wsignin1.0&wtrealm=urn%3Asharepoint"

func fuzzHTML(_ bytes: [UInt8]) {
    _ = PageReader.markupAligns(bytes: bytes, url: pageURL)
    if let built = DOMParser.parse(bytes: bytes, url: pageURL, charset: nil),
        let reference = LibXMLTreeReading.parse(bytes: bytes, url: pageURL, charset: nil)
    {
        let difference = LibXMLTreeReading.firstDifference(built, reference)
        Fuzz.check(difference == nil, "the event-built tree differs from libxml2's: \(difference ?? "")")
    }
    guard let page = try? HTMLPage(bytes: bytes, url: pageURL, charset: nil) else { return }
    let classification = page.classification
    if let index = classification.formIndex {
        Fuzz.check(page.forms.indices.contains(index), "classification names form \(index) of \(page.forms.count)")
    }
    if let index = page.selfSubmit?.formIndex {
        Fuzz.check(page.forms.indices.contains(index), "self-submit names form \(index) of \(page.forms.count)")
    }
    _ = page.errorText
    _ = page.aadConfig.map { ($0.pgid, $0.urlPost, $0.flowTokenName, $0.proofMethods, $0.errorText) }
    Fuzz.check(URLResolver.components(of: page.baseURL).scheme != nil, "base URL \(page.baseURL) is not absolute")

    for (position, form) in page.forms.enumerated() {
        Fuzz.check(form.index == position, "form \(position) has index \(form.index)")
        for (index, control) in form.controls.enumerated() {
            Fuzz.check(control.index == index, "control \(index) has index \(control.index)")
        }
        _ = (form.actionURL, form.hiddenFields, form.usernameField, form.codeField, form.secondFactorChoice)
        _ = form.hasOnlyHiddenFields

        submit(form, clicking: nil, setting: [:])
        for button in form.submitButtons { submit(form, clicking: button, setting: [:]) }
        var overrides: [String: String] = [:]
        if let name = form.usernameField?.name { overrides[name] = "alice@example.com" }
        if let name = form.passwordField?.name { overrides[name] = "p@ss w&rd=%\r\n\u{e9}" }
        if let name = form.codeField?.name { overrides[name] = "123456" }
        overrides["Kmsi"] = "true"
        submit(form, clicking: form.submitButtons.first, setting: overrides)
    }
}

func submit(_ form: HTMLForm, clicking button: FormControl?, setting overrides: [String: String]) {
    let submission: FormSubmission
    do {
        submission = try form.submission(clicking: button, setting: overrides, boundary: "fuzzBoundary")
    } catch {
        Fuzz.check(false, "form \(form.index) cannot be submitted: \(error)")
        return
    }
    Fuzz.check(URLResolver.components(of: submission.url).scheme != nil, "submission URL \(submission.url)")
    let entries = submission.entries
    // An override replaces the value of a text-like, password, hidden, textarea or select control of its name, and
    // is appended when no enabled control has the name.
    let valueTypes: Set<String> = ["checkbox", "radio", "submit", "image", "button", "reset", "file"]
    for (name, value) in overrides {
        let named = form.controls.filter { $0.name == name && !$0.disabled }
        let takesValue = named.contains { $0.element != "button" && !valueTypes.contains($0.type) }
        if named.isEmpty || takesValue {
            Fuzz.check(entries.contains { $0.name == name && $0.value == value }, "override of \(name) not sent")
        }
    }
    let buttonNames = Set(form.submitButtons.compactMap(\.name))
    let sentButtons = entries.filter { buttonNames.contains($0.name) }.count
    let namedButtonTwice =
        form.controls.filter { $0.name != nil && buttonNames.contains($0.name!) }.count
        > buttonNames.count
    if button == nil && !namedButtonTwice {
        Fuzz.check(sentButtons == 0, "a submit button was sent without a click")
    }

    let expected = entries.map {
        (FormEncoding.normalizeNewlines($0.name), FormEncoding.normalizeNewlines($0.value))
    }
    switch (submission.method, submission.enctype) {
    case (.get, _):
        Fuzz.check(submission.body == nil, "GET with a body")
        let query = URLResolver.components(of: submission.url).query ?? ""
        Fuzz.check(decodeURLEncoded(query) == expected.map { [$0.0, $0.1] }, "GET query does not decode back")
    case (.post, .urlencoded):
        Fuzz.check(
            decodeURLEncoded(submission.bodyText) == expected.map { [$0.0, $0.1] }, "urlencoded body does not decode")
    case (.post, .textPlain):
        Fuzz.check(submission.bodyText == expected.map { $0.0 + "=" + $0.1 + "\r\n" }.joined(), "text/plain body")
    case (.post, .multipart):
        let body = submission.bodyText
        Fuzz.check(body.hasSuffix("--fuzzBoundary--\r\n"), "multipart body without its closing boundary")
        let parts = body.components(separatedBy: "--fuzzBoundary\r\nContent-Disposition: form-data; ").count - 1
        Fuzz.check(parts >= entries.count, "multipart body has \(parts) parts for \(entries.count) entries")
    }
}

/// The name/value pairs of an application/x-www-form-urlencoded string, percent-decoded.
func decodeURLEncoded(_ text: String) -> [[String]] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.map { percentDecode(String($0)) } + (parts.count == 1 ? ["<missing =>"] : [])
    }
}

func percentDecode(_ text: String) -> String {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
        switch byte {
        case UInt8(ascii: "+"): bytes.append(0x20)
        case UInt8(ascii: "%"):
            let high = iterator.next().flatMap { hexValue($0) }
            let low = iterator.next().flatMap { hexValue($0) }
            guard let high, let low else { return "<bad escape>" }
            bytes.append(high << 4 | low)
        default: bytes.append(byte)
        }
    }
    return Fuzz.text(bytes)
}

func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

@main enum Main {
    static func main() { Fuzz.main(fuzzHTML) }
}
