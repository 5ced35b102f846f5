public import Foundation
public import JSON
import Presentation

/// The rows of `add --from` / `update --from`: a CSV file (a header of column names, then one record per item) or
/// NDJSON (one JSON object per line), read whole before anything is sent.
public struct BulkInput: Sendable {
    /// The two formats read.
    public enum Format: String, CaseIterable, Sendable {
        case csv, ndjson
    }

    /// One value as given: CSV text, or a JSON value from NDJSON.
    public enum Value: Sendable {
        case text(String)
        case json(JSONValue)
    }

    /// One data row: its number (data rows count from 1; a CSV header and blank lines are not counted), its values
    /// by column (nil where an NDJSON object lacks the key), or why the row cannot be read at all.
    public struct Row: Sendable {
        public let number: Int
        public var values: [Value?]
        public var problem: String?
    }

    /// The column names: the CSV header, or every key of the NDJSON objects in the order first seen.
    public var columns: [String]
    public var rows: [Row]

    /// The format of `path`: `--format` when given, else the extension (`.csv`, `.ndjson` or `.jsonl`).
    public static func format(of path: String, given: String?) throws(BulkInputError) -> Format {
        if let given {
            guard let format = Format(rawValue: given.lowercased()) else {
                throw BulkInputError(description: "unknown --format '\(given)'; use csv or ndjson")
            }
            return format
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") { return .ndjson }
        if path == "-" {
            throw BulkInputError(description: "--from - (standard input) needs --format csv or --format ndjson")
        }
        throw BulkInputError(
            description: "cannot tell the format of '\(path)' from its name: name it .csv or .ndjson, or add --format")
    }

    /// The bytes of `path`, or of standard input for `-`.
    public static func contents(of path: String) throws(BulkInputError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BulkInputError(description: "cannot read --from file '\(path)': no such file, or not readable")
        }
        return Array(data)
    }

    /// Reads `bytes` as `format`. A file that is not CSV at all, or a CSV file without a header, is a usage error;
    /// a row that cannot be read (a field count unlike the header's, an NDJSON line that is not an object) is kept
    /// with its problem, so the others still go.
    public init(_ bytes: [UInt8], format: Format, source: String) throws(BulkInputError) {
        switch format {
        case .csv: try self.init(csv: bytes, source: source)
        case .ndjson: self.init(ndjson: bytes)
        }
    }

    private init(csv bytes: [UInt8], source: String) throws(BulkInputError) {
        let records: [[String]]
        do {
            records = try CSVReader.records(bytes)
        } catch {
            throw BulkInputError(description: "\(source) is not CSV (RFC 4180): \(error.description)")
        }
        guard let header = records.first else {
            throw BulkInputError(description: "\(source) is empty: the first line must name the columns")
        }
        columns = header.map { $0.trimmingCharacters(in: .whitespaces) }
        rows = records.dropFirst().enumerated().map { offset, record in
            var row = Row(number: offset + 1, values: record.map(Value.text))
            if record.count != header.count {
                row.problem = "has \(record.count) fields where the header has \(header.count)"
                row.values = []
            }
            return row
        }
    }

    private init(ndjson bytes: [UInt8]) {
        columns = []
        rows = []
        var objects: [(Int, [(String, JSONValue)]?, String?)] = []
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for line in lines {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            let number = objects.count + 1
            guard let value = try? JSONValue.parse(Data(text.utf8)) else {
                objects.append((number, nil, "is not JSON"))
                continue
            }
            guard case .object(let members) = value else {
                objects.append((number, nil, "is not a JSON object"))
                continue
            }
            for (key, _) in members where !columns.contains(key) { columns.append(key) }
            objects.append((number, members, nil))
        }
        rows = objects.map { number, members, problem in
            guard let members else { return Row(number: number, values: [], problem: problem) }
            let values: [Value?] = columns.map { column in
                members.first { $0.0 == column }.map { Value.json($0.1) }
            }
            return Row(number: number, values: values)
        }
    }
}

/// A file of rows that cannot be written as given (format, columns, an empty file): nothing was sent. The message
/// names the file as `--from` gave it.
public struct BulkInputError: Error, Sendable, CustomStringConvertible {
    public let description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}
