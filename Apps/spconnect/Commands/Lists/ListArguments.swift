import Foundation
import Presentation
import SharePoint

/// A `$select` list with `Id` added when it names fields but not the id (every item is decoded by its id).
func withID(_ select: [String]) -> [String] {
    if select.isEmpty || select.contains(where: { $0.lowercased() == "id" }) { return select }
    return ["Id"] + select
}

/// `a, b,c` → `["a", "b", "c"]`.
func splitList(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// Writes to standard error without a newline.
func printPartial(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
