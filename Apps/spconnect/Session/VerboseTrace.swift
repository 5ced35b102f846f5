import Foundation
import Transport

/// What `--verbose` prints for one transfer, in curl's style: `* METHOD URL -> STATUS (time, bytes)`, then the
/// request headers (`> `), the answer's (`< `) and, when it is sent again, `* retrying in 1.2 s`. Everything comes from Transport's ``TraceRecord``, which has
/// already redacted cookie, `Authorization` and secret query values (names are kept, values never); the lines are
/// then written through ``printError(_:)``, which also removes the run's password and cookie values wherever they
/// appear. Bodies are never shown.
enum VerboseTrace {
    static func lines(_ record: TraceRecord) -> [String] {
        let outcome = record.status.map { "HTTP \($0)" } ?? "failed: \(record.error ?? "no answer")"
        let milliseconds = Int(record.timings.total / .milliseconds(1))
        var facts = ["\(milliseconds) ms", "\(record.bytesReceived) bytes"]
        if record.attempt > 1 { facts.insert("retry \(record.attempt - 1)", at: 0) }
        var lines = ["* \(record.method) \(record.url) -> \(outcome) (\(facts.joined(separator: ", ")))"]
        if !record.formFieldNames.isEmpty {
            lines.append("> (form fields: \(record.formFieldNames.joined(separator: ", ")); values not shown)")
        }
        lines += record.requestHeaders.map { "> \($0.name): \($0.value)" }
        lines += record.responseHeaders.map { "< \($0.name): \($0.value)" }
        if let wait = record.retryIn {
            let seconds = Double(wait / .milliseconds(1)) / 1000
            lines.append("* retrying in \(String(format: "%.1f", seconds)) s")
        }
        return lines
    }
}
