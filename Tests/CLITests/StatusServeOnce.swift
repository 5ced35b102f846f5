import Foundation
import TestSupport
import Testing

/// `spconnect status --serve` (for `profile`, else the default one) started in the background with `environment`; once it prints its URL, one read of
/// `/status.json` (which proves the session, and renews it when it ended); then the app is stopped by its PID.
/// Returns the body read (empty when none came) and the app's standard error.
func statusJSONFromServe(environment: [String: String], profile: String? = nil) async throws -> (
    body: Data, stderr: String
) {
    let scratch = try temporaryDirectory("status-serve")
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let script = """
        "$0" status --serve ${2:+--profile "$2"} >"$1/url" 2>"$1/err" &
        pid=$!
        tries=0
        while [ ! -s "$1/url" ] && [ $tries -lt 200 ]; do sleep 0.05; tries=$((tries + 1)); done
        /usr/bin/curl -s -m 60 -o "$1/status.json" "$(head -n 1 "$1/url" | sed 's,/*$,,')/status.json"
        kill -9 $pid
        wait $pid
        exit 0
        """
    var environment = environment
    environment["PATH"] = "/usr/bin:/bin"
    let status = await spawnToExit(
        "/bin/sh", ["-c", script, spconnectPath, scratch, profile ?? ""], environment: environment,
        timeout: .seconds(120))
    #expect(status == 0)
    let body = FileManager.default.contents(atPath: scratch + "/status.json") ?? Data()
    return (body, (try? String(contentsOfFile: scratch + "/err", encoding: .utf8)) ?? "")
}
