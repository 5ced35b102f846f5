import JSON

/// Standard error for scripts: with `-o json` or `-o ndjson` every line spconnect writes there is one JSON object,
/// so a script reads a failure the way it reads results (`2> err.json`, then `jq .code err.json`).
///
/// - A failure is the last line: `{"code": "network", "exit": 6, "message": "…", "hint": "…"}`. `message` is the
///   line the plain output would have ended with, with the run's secrets removed exactly as there; `hint` is what to
///   do about that kind of failure (the exit codes of docs/cli.md, by name).
/// - A message along the way (a warning, a notice that the session is being renewed) is `{"notice": "…"}`.
/// - `--verbose` lines stay plain text, written at once (they are for people reading along).
///
/// Messages are held until the command ends (only then is it known which one is the failure), then written in order.
enum JSONErrors {
    /// Whether `arguments` (as typed, before parsing) ask for JSON or NDJSON output: `-o json`, `--output ndjson`,
    /// `--output=json`, `-ojson`.
    static func requested(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            var value: String?
            if word == "-o" || word == "--output" {
                value = index + 1 < arguments.count ? arguments[index + 1] : nil
                index += 1
            } else if word.hasPrefix("--output=") {
                value = String(word.dropFirst("--output=".count))
            } else if word.hasPrefix("-o"), word.count > 2, !word.hasPrefix("--") {
                value = String(word.dropFirst(2))
            }
            if let value, isJSON(value) { return true }
            index += 1
        }
        return false
    }

    /// Whether an output format name is json or ndjson (any case).
    static func isJSON(_ format: String) -> Bool {
        ["json", "ndjson"].contains(format.lowercased())
    }

    /// The lines standard error gets at the end of a command that held `messages` (already made safe to show) and
    /// ended with `code`.
    static func lines(_ messages: [String], ending code: ExitCode) -> [String] {
        guard code != .ok else { return messages.map(notice) }
        let failure = messages.last ?? "spconnect failed (exit \(code.rawValue))"
        let object = JSONValue.object([
            ("code", .string(code.name)), ("exit", .integer(Int64(code.rawValue))), ("message", .string(failure)),
            ("hint", .string(code.hint)),
        ])
        return messages.dropLast().map(notice) + [object.serialized()]
    }

    /// `{"notice": message}`.
    static func notice(_ message: String) -> String {
        JSONValue.object([("notice", .string(message))]).serialized()
    }
}

extension ExitCode {
    /// The code's name in a JSON error (`invalid_credentials`), as docs/cli.md lists it.
    var name: String {
        switch self {
        case .ok: "ok"
        case .failure: "failure"
        case .usage: "usage"
        case .invalidCredentials: "invalid_credentials"
        case .interactionRequired: "interaction_required"
        case .unknownPage: "unknown_page"
        case .network: "network"
        case .policyRefused: "policy_refused"
        case .notFound: "not_found"
        case .conflict: "conflict"
        case .throttled: "throttled"
        case .signInRequired: "sign_in_required"
        case .accessDenied: "access_denied"
        case .httpError: "http_error"
        case .rowsFailed: "rows_failed"
        case .locked: "locked"
        }
    }

    /// What to do about a failure of this kind, in one sentence.
    var hint: String {
        switch self {
        case .ok: ""
        case .failure: "Read the message; run again with --verbose to see each request."
        case .usage: "Check the command line: 'spconnect help COMMAND' lists the options."
        case .invalidCredentials:
            "Check the user name and the password (or the password source a renewal used), then run 'spconnect login'."
        case .interactionRequired:
            "The identity provider asks for something spconnect cannot give: complete it once in a browser, or use "
                + "another flow."
        case .unknownPage: "The sign-in reached a page spconnect does not know; run 'spconnect login --verbose'."
        case .network: "Check the network, the proxy and that the server is up; --retries N retries more."
        case .policyRefused: "A safety rule refused the request (plain http, an insecure redirect); use https."
        case .notFound: "Check the site, list, item or path name."
        case .conflict: "The target exists or changed meanwhile; read it again, or use --overwrite where offered."
        case .throttled: "The server is busy or the query too large; retry later, or narrow it with a filter."
        case .signInRequired:
            "Run 'spconnect login', or give renewals a password source (SPCONNECT_PASSWORD_FILE, "
                + "SPCONNECT_PASSWORD_COMMAND, login --password-command)."
        case .accessDenied: "The account lacks permission for this; ask the site's owner."
        case .httpError: "The server refused the request; the message gives its reason."
        case .rowsFailed: "Some rows were not written; the output says which (rerun with those rows only)."
        case .locked:
            "Another spconnect run is using the local folder; wait for it, or give --wait SECONDS to wait for it."
        }
    }
}
