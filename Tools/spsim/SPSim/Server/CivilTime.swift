import Foundation

/// A UTC civil time computed from Unix seconds (no Foundation formatters: deterministic and thread-safe).
struct CivilTime {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
    let weekday: Int  // 0 = Sunday

    init(_ epochSeconds: Int) {
        let days = Int((Double(epochSeconds) / 86400).rounded(.down))
        let secondsOfDay = epochSeconds - days * 86400
        hour = secondsOfDay / 3600
        minute = (secondsOfDay % 3600) / 60
        second = secondsOfDay % 60
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    static func epoch(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `2024-03-29T17:57:55Z`
    var iso: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":"
            + pad(second, 2) + "Z"
    }
    /// `05 Mar 2026 10:15:00 -0000` (form digest suffix)
    var digest: String {
        String(
            format: "%02d %@ %04d %02d:%02d:%02d -0000", day, CivilTime.monthNames[month - 1], year, hour, minute,
            second)
    }
    /// `Sun, 29 Nov 2026 12:00:00 GMT` (cookie Expires)
    var http: String {
        String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", CivilTime.dayNames[weekday], day,
            CivilTime.monthNames[month - 1], year, hour, minute, second)
    }
    /// `10/12/2022 1:07 AM` (FieldValuesAsText in en-US)
    var display: String {
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%d/%d/%04d %d:%02d %@", month, day, year, hour12, minute, hour < 12 ? "AM" : "PM")
    }

    /// Parses `2024-01-01`, `2024-01-01T10:00:00Z`, `2024-01-01T10:00:00.123` (zone-less = UTC).
    static func parse(_ text: String) -> Int? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 3 else { return nil }
        return epoch(
            year: digits[0], month: digits[1], day: digits[2], hour: digits.count > 3 ? digits[3] : 0,
            minute: digits.count > 4 ? digits[4] : 0, second: digits.count > 5 ? digits[5] : 0)
    }
}

func nowEpoch() -> Int { Int(Date().timeIntervalSince1970) }
