import CommandLineKit
import Foundation
import JSON

/// `key=value` (a string) and `key:=JSON` (a raw JSON value: number, true, null, array…) pairs.
func fieldAssignments(_ words: [String]) throws(UsageError) -> [(String, JSONValue)] {
    guard !words.isEmpty else { throw UsageError(description: "no fields given: use Name=value or Name:=JSON") }
    var fields: [(String, JSONValue)] = []
    for word in words {
        if let range = word.range(of: ":="), !word[..<range.lowerBound].contains("=") {
            let name = String(word[..<range.lowerBound])
            let text = String(word[range.upperBound...])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            do {
                fields.append((name, try JSONValue.parse(text)))
            } catch {
                throw UsageError(description: "'\(word)': the value after := is not JSON (\(text))")
            }
        } else if let equals = word.firstIndex(of: "=") {
            let name = String(word[..<equals])
            guard !name.isEmpty else { throw UsageError(description: "'\(word)': the field name is missing") }
            fields.append((name, .string(String(word[word.index(after: equals)...]))))
        } else {
            throw UsageError(description: "'\(word)' is not Name=value or Name:=JSON")
        }
    }
    return fields
}

/// Whether the command line asks for a bulk write (`--from`); `--format` alone is a usage error.
func isBulk(_ arguments: ParsedArguments) throws(UsageError) -> Bool {
    if arguments.value(.from) != nil { return true }
    if arguments.value(.format) != nil { throw UsageError(description: "--format goes with --from FILE") }
    if arguments.has(.dryRun) {
        throw UsageError(description: "--dry-run goes with --from FILE (one item's write is one request, shown by -v)")
    }
    return false
}
