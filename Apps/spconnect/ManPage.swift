/// The spconnect(1) manual page in roff (`man -l`), made from the command table: each command's synopsis,
/// summary, options and examples are the ones `--help` prints, so the two never disagree.
enum ManPage {
    /// The exit statuses, as docs/cli.md lists them (shortened).
    static let exitStatuses: [(ExitCode, String)] = [
        (.ok, "success"), (.failure, "failure not covered below"),
        (.usage, "usage error: unknown command or option, missing value, a bad config file line"),
        (.invalidCredentials, "invalid credentials, at login or when a renewal's password is refused"),
        (.interactionRequired, "interaction required (MFA, Conditional Access, consent, ...)"),
        (.unknownPage, "unknown page or loop during the sign-in"),
        (.network, "network or TLS failure after the --retries, --timeout"),
        (.policyRefused, "refused by the sign-in policy"), (.notFound, "not found"),
        (.conflict, "conflict: changed since read, exists or locked"), (.throttled, "throttled after the retries"),
        (.signInRequired, "sign-in required: run spconnect login"), (.accessDenied, "access denied"),
        (.httpError, "the server refused the request"),
        (.rowsFailed, "add --from / update --from: at least one row could not be written"),
        (.locked, "download -r / upload -r: another spconnect run is using the local folder (see --wait)"),
    ]

    static let environment: [(String, String)] = [
        ("SPCONNECT_PROFILE", "the profile used when --profile is not given (default: default)"),
        ("SPCONNECT_PASSWORD, SPCONNECT_PASSWORD_FILE", "the password for login and for renewing a session"),
        ("SPCONNECT_KEYRING_TIMEOUT", "seconds a keyring call may take, unlock prompt included (default 60)"),
        ("SPCONNECT_COMMAND_TIMEOUT", "seconds a password or one-time code command may run (default 60, at most 100)"),
        ("SPCONNECT_USER_AGENT", "the User-Agent when --user-agent is not given"),
        ("SPCONNECT_OTP_COMMAND, SPCONNECT_TOTP_SECRET_FILE", "one-time codes for a second factor"),
        ("XDG_CONFIG_HOME", "where the config file is (default ~/.config)"),
        ("XDG_STATE_HOME", "where the sessions are (default ~/.local/state)"),
        ("NO_COLOR", "no ANSI bold in tables"),
    ]

    static func render(commands: [Command], version: String) -> String {
        var lines = [
            ".TH SPCONNECT 1 \"\" \"spconnect \(version)\" \"User Commands\"",
            ".SH NAME",
            "spconnect \\- a headless SharePoint client: sign in like a browser, then browse and move content",
            ".SH SYNOPSIS",
            ".B spconnect",
            ".I COMMAND",
            "[\\fIOPTIONS\\fR]",
            ".SH DESCRIPTION",
            text(
                "spconnect signs in to SharePoint (or any page behind single sign-on) the way a browser does, without "
                    + "a browser, saves the session as a curl-readable cookie file, and lists, downloads and uploads "
                    + "content over the REST API (with its versions and attachments, and the recycle bin for what it "
                    + "removes). Options may be written --name value or --name=value; -- ends them. "
                    + "Passwords are never accepted as arguments."),
            ".SH COMMANDS",
        ]
        for command in commands where !command.hidden {
            lines.append(
                ".SS \"\(text("spconnect \(command.name) \(command.synopsis)").replacingOccurrences(of: "\"", with: "\\(dq"))\""
            )
            lines.append(text(command.summary))
            for option in command.acceptedOptions {
                lines.append(".TP")
                lines.append("\\fB" + text(option.label) + "\\fR")
                lines.append(text(option.help))
            }
            if !command.examples.isEmpty {
                lines += [".PP", "Examples:", ".RS", ".nf"]
                lines += command.examples.map(text)
                lines += [".fi", ".RE"]
            }
        }
        lines.append(".SH \"EXIT STATUS\"")
        for (code, meaning) in exitStatuses {
            lines += [".TP", "\\fB\(code.rawValue)\\fR", text(meaning)]
        }
        lines += [
            ".PP",
            text(
                "With -o json or -o ndjson standard error is JSON, one object a line: the failure last, as "
                    + "{\"code\": \"not_found\", \"exit\": 8, \"message\": \"...\", \"hint\": \"...\"} (the message "
                    + "with its secrets removed as in the plain text), messages along the way as {\"notice\": ...} "
                    + "(--verbose lines stay plain text). status -o json prints the session as one object."),
            ".SH RETRIES",
            text(
                "A request is sent again up to --retries N times (default 3), after a back-off from 0.5 s doubling "
                    + "to 8 s: a refused or unreachable connection, and 429 or 503 (Retry-After honoured up to 5 "
                    + "minutes); for idempotent requests (GET, HEAD, PUT, DELETE) also a broken connection, a "
                    + "timeout, 502 and 504. A download cut short resumes with a Range request when the server gave "
                    + "Accept-Ranges and an ETag or Last-Modified to check (If-Range), else starts again from zero. "
                    + "--verbose shows every attempt."),
        ]
        lines.append(".SH ENVIRONMENT")
        for (name, meaning) in environment {
            lines += [".TP", "\\fB" + text(name) + "\\fR", text(meaning)]
        }
        lines += [
            ".SH FILES",
            ".TP",
            text("$XDG_CONFIG_HOME/spconnect/config"),
            text(
                "key = value lines setting defaults for profile, output, timeout and user-agent; flags and the "
                    + "environment win over it."),
            ".TP",
            text("$XDG_STATE_HOME/spconnect/sessions/PROFILE.cookies"),
            text("the saved sessions (mode 0600, Netscape cookie files that curl -b reads)."),
            ".SH \"SEE ALSO\"",
            "\\fBcurl\\fR(1); docs/cli.md in the source for every option, exit code and security promise.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `line` as roff text: backslashes and hyphens escaped, and a leading `.` or `'` kept from being read as a
    /// request.
    static func text(_ line: String) -> String {
        let escaped = line.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
