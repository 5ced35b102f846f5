import Foundation

extension TraceRecord {
    /// The exchange in curl's `--verbose` style: `* METHOD URL -> STATUS (time, bytes)`, the form field names, the
    /// request headers (`> `), the answer's (`< `) and, when it is sent again, `* retrying in 1.2 s`. Made of the
    /// record only, so as redacted as it is (cookie, `Authorization` and secret query values gone, names kept);
    /// bodies are never shown.
    public var verboseLines: [String] {
        let outcome = status.map { "HTTP \($0)" } ?? "failed: \(error ?? "no answer")"
        let milliseconds = Int(timings.total / .milliseconds(1))
        var facts = ["\(milliseconds) ms", "\(bytesReceived) bytes"]
        if attempt > 1 { facts.insert("retry \(attempt - 1)", at: 0) }
        var lines = ["* \(method) \(url) -> \(outcome) (\(facts.joined(separator: ", ")))"]
        if !formFieldNames.isEmpty {
            lines.append("> (form fields: \(formFieldNames.joined(separator: ", ")); values not shown)")
        }
        lines += requestHeaders.map { "> \($0.name): \($0.value)" }
        lines += responseHeaders.map { "< \($0.name): \($0.value)" }
        if let retryIn {
            let seconds = Double(retryIn / .milliseconds(1)) / 1000
            lines.append("* retrying in \(String(format: "%.1f", seconds)) s")
        }
        return lines
    }
}
