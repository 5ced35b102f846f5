import Foundation

/// The `key=value,key=value` pairs of a command-line specification (`--faults`, `--budgets`): keys as written,
/// values trimmed of spaces, a bare key with an empty value.
enum SpecPairs {
    static func parse(_ spec: String) -> [(key: String, value: String)] {
        spec.split(separator: ",").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (pieces[0], pieces.count > 1 ? pieces[1] : "")
        }
    }
}

/// What is wrong with a command-line specification (`--faults`, `--budgets`, `--fido`), in words that name the key.
public struct SpecError: Error, CustomStringConvertible {
    /// The key and what it needs.
    public let description: String
}
