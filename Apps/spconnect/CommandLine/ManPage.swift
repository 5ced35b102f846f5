/// The spconnect(1) manual page in roff (`man -l`), made from the command table: each command's synopsis,
/// summary, options and examples are the ones `--help` prints, so the two never disagree; the exit statuses are
/// ``ExitCode``'s and the environment ``EnvironmentVariable/all``.
enum ManPage {
    /// The page for `commands` (hidden ones left out).
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
                lines.append(text(option.described()))
            }
            if !command.examples.isEmpty {
                lines += [".PP", "Examples:", ".RS", ".nf"]
                lines += command.examples.map(text)
                lines += [".fi", ".RE"]
            }
        }
        lines.append(".SH \"EXIT STATUS\"")
        for code in ExitCode.allCases {
            lines += [".TP", "\\fB\(code.rawValue)\\fR", text(code.summary)]
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
        for variable in EnvironmentVariable.all {
            lines += [".TP", "\\fB" + text(variable.name) + "\\fR", text(variable.summary)]
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
