import CommandLineKit

/// spconnect's manual page and shell completions: the command table with spconnect's own words around it.
enum Manual {
    /// The spconnect(1) page.
    static func page(commands: [Command], version: String) -> ManualPage {
        var page = ManualPage(
            program: "spconnect", version: version,
            tagline: "a headless SharePoint client: sign in like a browser, then browse and move content",
            description: "spconnect signs in to SharePoint (or any page behind single sign-on) the way a browser does, "
                + "without a browser, saves the session as a curl-readable cookie file, and lists, downloads and "
                + "uploads content over the REST API (with its versions and attachments, and the recycle bin for "
                + "what it removes). Options may be written --name value or --name=value; -- ends them. Passwords "
                + "are never accepted as arguments.",
            commands: commands.map(\.description),
            exitStatuses: ExitCode.allCases.map { ManualPage.Entry(String($0.rawValue), $0.summary) })
        page.exitNotes = [
            "With -o json or -o ndjson standard error is JSON, one object a line: the failure last, as "
                + "{\"code\": \"not_found\", \"exit\": 8, \"message\": \"...\", \"hint\": \"...\"} (the message "
                + "with its secrets removed as in the plain text), messages along the way as {\"notice\": ...} "
                + "(--verbose lines stay plain text). status -o json prints the session as one object."
        ]
        page.sections = [
            (
                "RETRIES",
                "A request is sent again up to --retries N times (default 3), after a back-off from 0.5 s doubling "
                    + "to 8 s: a refused or unreachable connection, and 429 or 503 (Retry-After honoured up to 5 "
                    + "minutes); for idempotent requests (GET, HEAD, PUT, DELETE) also a broken connection, a "
                    + "timeout, 502 and 504. A download cut short resumes with a Range request when the server gave "
                    + "Accept-Ranges and an ETag or Last-Modified to check (If-Range), else starts again from zero. "
                    + "--verbose shows every attempt."
            )
        ]
        page.environment = EnvironmentVariable.all.map { ManualPage.Entry($0.name, $0.summary) }
        page.files = [
            ManualPage.Entry(
                "$XDG_CONFIG_HOME/spconnect/config",
                "key = value lines setting defaults for profile, output, timeout and user-agent; flags and the "
                    + "environment win over it."),
            ManualPage.Entry(
                "$XDG_STATE_HOME/spconnect/sessions/PROFILE.cookies",
                "the saved sessions (mode 0600, Netscape cookie files that curl -b reads)."),
        ]
        page.seeAlso = "\\fBcurl\\fR(1); docs/cli.md in the source for every option, exit code and security promise."
        return page
    }

    /// The completion scripts' source: the command table (by name, as a shell lists candidates) and the sessions
    /// folder's profiles.
    static func completion(commands: [Command]) -> ShellCompletion {
        ShellCompletion(
            program: "spconnect",
            commands: commands.filter { !$0.hidden }.sorted { $0.name < $1.name }.map(\.description),
            profiles: ShellCompletion.ProfileNames(folder: "spconnect/sessions", suffix: ".cookies"))
    }
}
