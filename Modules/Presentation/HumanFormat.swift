public import Foundation

/// Short human-readable forms of sizes, durations and relative times, for tables and progress lines.
/// Pure functions; the current time is always an input.
public enum HumanFormat {
    /// Units for ``byteCount(_:style:)``.
    public enum ByteCountStyle: Sendable, Equatable {
        /// Powers of 1000: B, KB, MB, GB, TB (as disks and network speeds are sold; the default).
        case decimal
        /// Powers of 1024: B, KiB, MiB, GiB, TiB.
        case binary
    }

    /// A byte count with one decimal above 1 KB: `512 B`, `1.0 KB`, `12.3 MB`, `27.0 GB`.
    /// Rounding that reaches the next unit moves to it (999,999 bytes is `1.0 MB`). Negative counts keep their sign.
    public static func byteCount(_ bytes: Int64, style: ByteCountStyle = .decimal) -> String {
        let base: Double = style == .decimal ? 1000 : 1024
        let units = style == .decimal ? ["KB", "MB", "GB", "TB", "PB"] : ["KiB", "MiB", "GiB", "TiB", "PiB"]
        let sign = bytes < 0 ? "-" : ""
        let magnitude = Double(bytes.magnitude)
        if magnitude < base { return "\(sign)\(bytes.magnitude) B" }
        var value = magnitude / base
        var unit = 0
        while unit < units.count - 1, (value * 10).rounded() / 10 >= base {
            value /= base
            unit += 1
        }
        return "\(sign)\(oneDecimal(value)) \(units[unit])"
    }

    /// A transfer rate: ``byteCount(_:style:)`` per second, `3.1 MB/s`.
    public static func rate(bytesPerSecond: Double, style: ByteCountStyle = .decimal) -> String {
        let clamped = bytesPerSecond.isFinite ? min(max(bytesPerSecond, 0), Double(Int64.max / 2)) : 0
        return byteCount(Int64(clamped.rounded()), style: style) + "/s"
    }

    /// A duration in its two largest units, whole seconds rounded down, zero units left out:
    /// `0s`, `5s`, `3m 5s`, `3m`, `9h 59m`, `2d 3h`. Negative durations are shown by magnitude.
    public static func duration(seconds: Double) -> String {
        let total = wholeSeconds(seconds)
        let (days, hours, minutes, secs) = (total / 86_400, total / 3600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return join(days, "d", hours, "h") }
        if hours > 0 { return join(hours, "h", minutes, "m") }
        if minutes > 0 { return join(minutes, "m", secs, "s") }
        return "\(secs)s"
    }

    /// A coarser duration for relative times: seconds only under a minute, else as ``duration(seconds:)`` without
    /// seconds (`45s`, `3m`, `9h 59m`, `2d 3h`).
    public static func coarseDuration(seconds: Double) -> String {
        let total = wholeSeconds(seconds)
        if total >= 60, total < 3600 { return "\(total / 60)m" }
        return duration(seconds: Double(total))
    }

    /// `date` relative to `now`: `in 9h 59m`, `3m ago`, or `now` within a second.
    public static func relative(_ date: Date, now: Date) -> String {
        let delta = date.timeIntervalSince(now)
        if abs(delta) < 1 { return "now" }
        let text = coarseDuration(seconds: delta)
        return delta > 0 ? "in \(text)" : "\(text) ago"
    }

    /// An expiry time relative to `now`, as for session cookies: `in 9h 59m`, or `expired 3m ago` once
    /// `expiry` is not in the future (`expired just now` within a second).
    public static func expiry(_ expiry: Date, now: Date) -> String {
        let delta = expiry.timeIntervalSince(now)
        if delta > 0 { return "in \(coarseDuration(seconds: delta))" }
        if delta > -1 { return "expired just now" }
        return "expired \(coarseDuration(seconds: delta)) ago"
    }

    private static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int(min(abs(seconds), Double(Int.max / 2)).rounded(.down))
    }

    private static func join(_ major: Int, _ majorUnit: String, _ minor: Int, _ minorUnit: String) -> String {
        minor == 0 ? "\(major)\(majorUnit)" : "\(major)\(majorUnit) \(minor)\(minorUnit)"
    }

    /// `value` with exactly one decimal, rounded half away from zero.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
