import AuthFlow
import CommandLineKit
import HTML
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect inspect FILE [--url URL] [--charset C]`: reads a saved page offline and prints what the
/// sign-in engine sees, as JSON. `FILE` may be `-` for standard input. Password values and `$Config` token
/// values are never printed.
let inspectCommand = Command(
    name: "inspect", summary: "Show what the sign-in engine sees in a saved page (kind, forms, $Config, errors).",
    synopsis: "FILE|- [--url URL] [--charset CHARSET]",
    options: [
        .value(.url, "URL", "the address the page was served from (resolves relative actions)"),
        .value(.charset, "CHARSET", "the charset of the HTTP Content-Type, when known"),
    ],
    examples: [
        "spconnect inspect login-page.html --url https://login.example.com/",
        "curl -s https://idp.example/login | spconnect inspect -",
    ], positionals: .path
) { arguments in
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
        throw UsageError(description: "give exactly one FILE (or - for standard input)")
    }
    return ExitCode(
        rawValue: inspect(file: file, url: arguments.value(.url), charset: arguments.value(.charset))) ?? .failure
}

/// Reads and reports one page; returns 0, or 2 on an unreadable file or a bad `--url`.
func inspect(
    file: String, url: String?, charset: String?,
    readStandardInput: () -> [UInt8]? = { readAll(fileDescriptor: 0) },
    output: (String) -> Void = { print($0) },
    errorOutput: (String) -> Void = { writeStandardError($0) }
) -> Int32 {
    if let url, URLResolver.components(of: url).scheme == nil {
        errorOutput("spconnect inspect: --url must be an absolute URL (got \"\(url)\")")
        return 2
    }
    let bytes: [UInt8]?
    if file == "-" {
        bytes = readStandardInput()
    } else {
        let descriptor = open(file, O_RDONLY)
        bytes = descriptor < 0 ? nil : readAll(fileDescriptor: descriptor)
        if descriptor >= 0 { close(descriptor) }
    }
    guard let bytes else {
        let reason =
            file == "-" ? "cannot read standard input" : "cannot read \(file): \(String(cString: strerror(errno)))"
        errorOutput("spconnect inspect: \(reason)")
        return 2
    }
    let pageURL = url ?? fileURL(for: file)
    let page: HTMLPage
    do {
        page = try HTMLPage(bytes: bytes, url: pageURL, charset: charset)
    } catch {
        errorOutput("spconnect inspect: \(error)")
        return 2
    }
    output(inspectionReport(page).serialized(options: [.prettyPrinted, .sortedKeys]))
    return 0
}

/// The JSON `spconnect inspect` prints for a page.
func inspectionReport(_ page: HTMLPage) -> JSONValue {
    let classification = page.classification
    func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    var report: [String: JSONValue] = [
        "url": .string(page.url),
        "kind": .string(classification.kind.manifestName),
        "page_kind": .string(classification.kind.rawValue),
        "signals": .array(classification.signals.map(JSONValue.string)),
        "reason": .string(classification.reason),
        "title": optional(page.title),
        "base_href": optional(page.baseHref),
        "error_text": optional(page.errorText),
        "script_redirect": optional(page.scriptRedirect),
        "forms_on_page": .integer(Int64(page.forms.count)),
        "forms": .array(page.forms.map(formReport)),
    ]
    report["meta_refresh"] =
        page.metaRefresh.map { object(["delay": .double($0.delay), "url": .string($0.url)]) } ?? .null
    report["self_submit"] =
        page.selfSubmit.map {
            object(["form_index": .integer(Int64($0.formIndex)), "trigger": .string($0.trigger.rawValue)])
        } ?? .null

    let chosen = classification.formIndex.map { page.forms[$0] }
    report["chosen_form"] = classification.formIndex.map { .integer(Int64($0)) } ?? .null
    report["username_field"] = optional(chosen?.usernameField?.name)
    report["password_field"] = optional(chosen?.passwordField?.name)
    report["code_field"] = optional(chosen?.codeField?.name)
    report["hidden_fields"] = .array(
        (chosen?.hiddenFields ?? []).map { object(["name": optional($0.name), "value": .string($0.value)]) })

    if let config = page.aadConfig {
        var summary: [String: JSONValue] = [
            "pgid": optional(config.pgid),
            "urlPost": optional(config.urlPost),
            "sFTName": optional(config.flowTokenName),
            "sCanaryTokenName": optional(config.canaryTokenName),
            "sErrorCode": optional(config.errorCode),
            "has_flow_token": .bool(config.flowToken != nil),
            "has_ctx": .bool(config.context != nil),
            "has_canary": .bool(config.canary != nil),
        ]
        if !config.proofMethods.isEmpty { summary["proof_methods"] = .array(config.proofMethods.map(JSONValue.string)) }
        report["aad_config"] = object(summary)
    } else {
        report["aad_config"] = .null
    }
    return object(report)
}

private func formReport(_ form: HTMLForm) -> JSONValue {
    func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    let fields: [JSONValue] = form.controls.map { control in
        var field: [String: JSONValue] = [
            "element": .string(control.element),
            "type": .string(control.type),
            "name": optional(control.name),
        ]
        if control.type != "password" {  // password values never leave the process
            field["value"] = control.element == "select" ? .null : .string(control.value)
        }
        if control.type == "checkbox" || control.type == "radio" { field["checked"] = .bool(control.checked) }
        if control.element == "select" {
            field["options"] = .array(control.options.map { .string($0.value) })
            field["selected"] = .array(control.selectedOptions.map { .string($0.value) })
        }
        if control.disabled { field["disabled"] = .bool(true) }
        if control.insideNoscript { field["inside_noscript"] = .bool(true) }
        if let label = control.label { field["label"] = .string(label) }
        if let (role, signal) = form.roleAndSignal(of: control) {
            field["role"] = .string(role.rawValue)
            field["role_signal"] = .string(signal)
        }
        return object(field)
    }
    return object([
        "index": .integer(Int64(form.index)),
        "id": optional(form.id),
        "name": optional(form.name),
        "action": optional(form.action),
        "action_url": optional(form.actionURL),
        "method": .string(form.method.rawValue),
        "enctype": .string(form.enctype.rawValue),
        "fields": .array(fields),
    ])
}

/// An object from a dictionary; printed with sorted keys, so the order here does not matter.
private func object(_ members: [String: JSONValue]) -> JSONValue {
    .object(members.map { ($0.key, $0.value) })
}

/// `file://` URL for a path (made absolute against the working directory).
private func fileURL(for path: String) -> String {
    if path == "-" { return "file:///dev/stdin" }
    var absolute = path
    if !path.hasPrefix("/") {
        var buffer = [CChar](repeating: 0, count: 4096)
        if getcwd(&buffer, buffer.count) != nil {
            absolute =
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
        }
    }
    return "file://"
        + absolute.split(separator: "/", omittingEmptySubsequences: false)
        .map { FormEncoding.percentEncode(String($0)).replacingPlus() }.joined(separator: "/")
}

/// Reads a file descriptor to its end; nil on a read error.
func readAll(fileDescriptor: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(fileDescriptor, &buffer, buffer.count)
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes.append(contentsOf: buffer[0..<count])
    }
}

/// Writes a line to standard error.
func writeStandardError(_ text: String) {
    let line = Array((text + "\n").utf8)
    line.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

extension String {
    /// `+` (a form-encoded space) back to `%20` for use in a URL path.
    fileprivate func replacingPlus() -> String {
        var result = ""
        for character in self { result += character == "+" ? "%20" : String(character) }
        return result
    }
}
