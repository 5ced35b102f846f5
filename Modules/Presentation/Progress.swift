/// One progress line for standard error, as a value: `label [#####.....] 45% 12.3 MB/27.0 MB 3.1 MB/s ETA 5s`.
///
/// With an unknown total the bar becomes a spinner and only the bytes and rate are shown:
/// `label | 12.3 MB 3.1 MB/s`. The percentage and bar round down, so 100% means done.
/// The rate appears once time has passed and bytes moved; the ETA while the total is known and not yet reached.
public struct ProgressBar: Sendable, Equatable {
    /// Text in front of the bar (a file name); sanitised for the terminal when rendered.
    public var label: String
    /// The bar's width in characters, brackets excluded.
    public var barWidth: Int
    /// The units used for sizes and rate.
    public var byteCountStyle: HumanFormat.ByteCountStyle

    private static let spinnerFrames = ["|", "/", "-", "\\"]

    /// Creates a bar.
    public init(label: String, barWidth: Int = 20, byteCountStyle: HumanFormat.ByteCountStyle = .decimal) {
        self.label = label
        self.barWidth = max(1, barWidth)
        self.byteCountStyle = byteCountStyle
    }

    /// The progress line (without `\r` or newline).
    /// - Parameters:
    ///   - done: bytes transferred so far.
    ///   - total: the expected size, or `nil` when unknown.
    ///   - elapsedSeconds: time since the transfer started; drives the rate, the ETA and the spinner frame
    ///     (four frames a second).
    public func render(done: Int64, total: Int64?, elapsedSeconds: Double) -> String {
        var parts: [String] = []
        let label = TerminalText.sanitized(self.label)
        if !label.isEmpty { parts.append(label) }
        let done = max(0, done)
        let rate = elapsedSeconds > 0 && done > 0 ? Double(done) / elapsedSeconds : nil
        if let total, total >= 0 {
            let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
            let filled = Int((fraction * Double(barWidth)).rounded(.down))
            parts.append(
                "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]")
            parts.append("\(Int((fraction * 100).rounded(.down)))%")
            parts.append(
                HumanFormat.byteCount(done, style: byteCountStyle) + "/"
                    + HumanFormat.byteCount(total, style: byteCountStyle))
            if let rate { parts.append(HumanFormat.rate(bytesPerSecond: rate, style: byteCountStyle)) }
            if let rate, done < total {
                parts.append("ETA " + HumanFormat.duration(seconds: (Double(total - done) / rate).rounded(.up)))
            }
        } else {
            let frame = elapsedSeconds.isFinite ? Int(max(0, elapsedSeconds * 4).rounded(.down)) % 4 : 0
            parts.append(ProgressBar.spinnerFrames[frame])
            parts.append(HumanFormat.byteCount(done, style: byteCountStyle))
            if let rate { parts.append(HumanFormat.rate(bytesPerSecond: rate, style: byteCountStyle)) }
        }
        return parts.joined(separator: " ")
    }
}

/// Writes a ``ProgressBar`` to a sink (standard error) as `\r`-updates, at most `maxUpdatesPerSecond` times a
/// second, and ends the line with a newline on ``finish(done:total:elapsedSeconds:)``.
///
/// Disabled (writes nothing at all) unless `isEnabled`: pass whether standard error is a terminal, so logs and pipes
/// never get progress noise. Time is an input, so throttling is deterministic. A shorter line is padded with spaces
/// to clear the previous one. Not thread-safe: feed it from one task (hop to it from transfer callbacks).
public final class ProgressReporter {
    /// The bar being drawn.
    public var bar: ProgressBar
    /// Whether anything is written.
    public let isEnabled: Bool
    /// The most updates written per second.
    public let maxUpdatesPerSecond: Double
    /// How many lines were written (updates and the final line).
    public private(set) var linesWritten = 0
    private let sink: any OutputSink
    private var lastWrittenAt: Double?
    private var lastWidth = 0
    private var finished = false

    /// Creates a reporter.
    /// - Parameters:
    ///   - sink: where lines go (``FileDescriptorSink/standardError()``); flushed after every line.
    ///   - isEnabled: whether standard error is a terminal (``Terminal/isTerminal(_:)`` on descriptor 2).
    ///   - maxUpdatesPerSecond: throttle; 10 by default.
    public init(sink: any OutputSink, bar: ProgressBar, isEnabled: Bool, maxUpdatesPerSecond: Double = 10) {
        self.sink = sink
        self.bar = bar
        self.isEnabled = isEnabled
        self.maxUpdatesPerSecond = max(0.001, maxUpdatesPerSecond)
    }

    /// Redraws the line unless the previous redraw was less than `1 / maxUpdatesPerSecond` seconds ago.
    public func update(done: Int64, total: Int64?, elapsedSeconds: Double) {
        guard isEnabled, !finished else { return }
        if let lastWrittenAt, elapsedSeconds - lastWrittenAt < 1 / maxUpdatesPerSecond { return }
        draw(bar.render(done: done, total: total, elapsedSeconds: elapsedSeconds), ending: "")
        lastWrittenAt = elapsedSeconds
    }

    /// Draws the final state (never throttled) and ends the line. Later calls do nothing.
    public func finish(done: Int64, total: Int64?, elapsedSeconds: Double) {
        guard isEnabled, !finished else { return }
        finished = true
        draw(bar.render(done: done, total: total, elapsedSeconds: elapsedSeconds), ending: "\n")
    }

    private func draw(_ line: String, ending: String) {
        let width = TerminalText.displayWidth(line)
        let clearing = String(repeating: " ", count: max(0, lastWidth - width))
        sink.write("\r" + line + clearing + ending)
        sink.flush()
        lastWidth = width
        linesWritten += 1
    }
}
