public import SharePoint

/// What to tell a user about writes whose outcome is unknown: a `$batch` reached the server and got no usable answer
/// (lost, cut short, unreadable, a 5xx), so some of its changes may have been made and sending them again could
/// make them twice. Each sentence names the rows or ids and the command to check them with.
public enum UnknownWrites {
    /// Why the batch's outcome is not known, as a clause ("its answer could not be read").
    public static func reason(_ error: SharePointError) -> String { BulkWriter.unknownReason(error) }

    /// The summary line of `add --from` (`ids` empty) or `update --from` (`ids`: the items the rows name) for
    /// the rows of unknown outcome.
    public static func bulkAdvice(rows: [Int], ids: [Int], list: String, updating: Bool) -> String {
        let rowsText = "row\(rows.count == 1 ? "" : "s") \(ranges(rows))"
        if updating {
            return "\(rowsText) (item\(ids.count == 1 ? "" : "s") \(ranges(ids))) may have been changed: check "
                + "'spconnect item \(shellWord(list)) ID' for each before sending them again"
        }
        return "\(rowsText) may have been created: check 'spconnect items \(shellWord(list)) --orderby \"Id desc\" "
            + "--top \(rows.count)' (the newest items) before sending them again"
    }

    /// The note of `delete LIST ID...` for the ids of unknown outcome.
    public static func deleteAdvice(ids: [Int], list: String) -> String {
        "item\(ids.count == 1 ? "" : "s") \(ranges(ids)) may have been deleted: check 'spconnect item "
            + "\(shellWord(list)) ID' for each (not found: deleted) before deleting them again"
    }

    /// `1-3, 7, 9-10`: the numbers in their order, runs of consecutive ones as ranges.
    public static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var end = index
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            parts.append(end > index ? "\(numbers[index])-\(numbers[end])" : "\(numbers[index])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }

    /// `text` as one shell word: as is when it holds only safe characters, else in double quotes.
    public static func shellWord(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                || "_./:@%+=,-".unicodeScalars.contains($0)
        }
        if safe, !text.isEmpty { return text }
        var quoted = "\""
        for character in text {
            if "\"\\$`".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
