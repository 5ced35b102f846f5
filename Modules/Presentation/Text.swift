package import Foundation

/// Terminal text helpers: display width, safe cell text, truncation.
///
/// Widths are approximate, like `wcwidth(3)`: wide (East Asian Wide/Fullwidth) characters and emoji count 2,
/// combining marks and other zero-width scalars count 0, everything else 1. Text is measured and cut by grapheme
/// cluster, so an emoji sequence or a letter with its accents is never split.
public enum TerminalText {
    /// The number of terminal columns `text` occupies.
    public static func displayWidth(_ text: String) -> Int {
        var width = 0
        for character in text { width += displayWidth(character) }
        return width
    }

    /// The number of terminal columns one grapheme cluster occupies (0, 1 or 2).
    public static func displayWidth(_ character: Character) -> Int {
        if character.isASCII {
            return character.asciiValue! < 0x20 || character.asciiValue! == 0x7F ? 0 : 1
        }
        var width = 0
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { return 2 }  // emoji presentation selector
            width = max(width, scalarWidth(scalar))
        }
        return width
    }

    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (value >= 0x1160 && value <= 0x11FF) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` made safe to show on a terminal in one line.
    ///
    /// Tab, CR, LF and the Unicode line and paragraph separators become a space; every other control character (C0, DEL, C1 such as CSI), and the
    /// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), become U+FFFD. So a SharePoint title
    /// cannot move the cursor, change colours or reorder the line it is shown on.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            default: scalars.append(needsReplacement(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(scalars)
    }

    /// `text` with every control character shown as an escape, for messages and logs that may quote a server:
    /// CR as `\r`, ESC as `\x1b`, other C0 controls and DEL as `\xNN`, C1 controls (CSI U+009B) and the
    /// bidirectional overrides and isolates as `\u{NNNN}`. Tab and LF stay when `keepLineBreaks` (a text whose
    /// own layout has several lines), else become `\t` and `\n`. So a server's text cannot clear the screen, move
    /// the cursor or forge a line of its own.
    public static func escapingControls(_ text: String, keepLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09 where keepLineBreaks, 0x0A where keepLineBreaks: result.unicodeScalars.append(scalar)
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0..<0x20, 0x7F: result += "\\x" + hex(scalar.value, digits: 2)
            default:
                if needsReplacement(scalar) {
                    result += "\\u{" + hex(scalar.value, digits: 4) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (value >= 0x7F && value < 0xA0) || (value >= 0x2028 && value <= 0x202E)
            || (value >= 0x2066 && value <= 0x2069)
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut. Never splits a grapheme cluster.
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if displayWidth(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = displayWidth(character)
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns, on the right (`.left`) or on the left (`.right`).
    public static func padded(_ text: String, toWidth width: Int, alignment: ColumnAlignment) -> String {
        let missing = width - displayWidth(text)
        guard missing > 0 else { return text }
        let padding = String(repeating: " ", count: missing)
        return alignment == .left ? text + padding : padding + text
    }
}

/// Plain-text forms of cell values shared by the renderers (and, within the package, the apps' own pages).
package enum CellText {
    /// The text of a cell for tables and CSV; `nil` for `null`.
    package static func plain(_ cell: Cell) -> String? {
        switch cell {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return number(value)
        case .bool(let value): return value ? "true" : "false"
        case .date(let value): return iso8601(value)
        case .null: return nil
        case .json(let value): return JSONText.compact(value)
        }
    }

    /// A double in its shortest round-tripping form (`inf`, `nan` when not finite).
    static func number(_ value: Double) -> String {
        value.description
    }

    /// `date` as ISO 8601 in UTC: `2026-11-29T12:05:09Z`, with milliseconds when there are any.
    package static func iso8601(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        // Clamped: a date beyond ±2^63 ms (no SharePoint date, but a Cell can hold one) must not trap.
        let scaled = (interval * 1000).rounded()
        let totalMilliseconds =
            scaled >= Double(Int64.max) ? Int64.max : scaled < Double(Int64.min) ? Int64.min : Int64(scaled)
        var seconds = totalMilliseconds / 1000
        var milliseconds = totalMilliseconds % 1000
        if milliseconds < 0 {
            milliseconds += 1000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // Days since 1970-01-01 to a civil date (Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms").
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
        return text + "Z"
    }

    private static func pad(_ value: Int64, _ digits: Int) -> String {
        let text = String(value)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }
}
