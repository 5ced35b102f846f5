/// Reads CSV as RFC 4180 writes it: fields separated by commas, records by CRLF (a bare LF is taken too), a field
/// in double quotes may hold commas, line breaks and `""` for one quote. A UTF-8 byte order mark at the start is
/// skipped; blank lines are skipped. What `spconnect add|update --from FILE.csv` reads (package API: the apps and the
/// fuzz target use it).
package enum CSVReader {
    /// A file that is not CSV: where and why.
    package struct SyntaxError: Error, CustomStringConvertible {
        /// The record (counting from 1, the header included) where reading stopped.
        package let record: Int
        /// What is wrong there.
        package let reason: String
        /// `record N: reason`.
        package var description: String { "record \(record): \(reason)" }
    }

    /// Every record, each a list of fields, in file order.
    package static func records(_ bytes: [UInt8]) throws(SyntaxError) -> [[String]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        // Whether the current record has anything in it yet (a blank line has not).
        var started = false

        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            if started { records.append(record) }
            record = []
            started = false
        }

        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == quote {
                    if index + 1 < bytes.count, bytes[index + 1] == quote {
                        field.append(quote)
                        index += 2
                        continue
                    }
                    quoted = false
                    index += 1
                    // After a closing quote only a separator or the end of the record may follow.
                    if index < bytes.count, ![comma, cr, lf].contains(bytes[index]) {
                        throw SyntaxError(
                            record: records.count + 1,
                            reason: "text after a closing quote (write a quote inside a quoted field as \"\")")
                    }
                    continue
                }
                field.append(byte)
                index += 1
                continue
            }
            switch byte {
            case quote where field.isEmpty:
                quoted = true
                started = true
            case comma:
                started = true
                endField()
            case cr where index + 1 < bytes.count && bytes[index + 1] == lf:
                break
            case lf:
                if started || !field.isEmpty { endField() }
                endRecord()
            default:
                started = true
                field.append(byte)
            }
            index += 1
        }
        if quoted {
            throw SyntaxError(record: records.count + 1, reason: "a quoted field is not closed before the end")
        }
        if started || !field.isEmpty {
            started = true
            endField()
        }
        endRecord()
        return records
    }
}
