import Foundation

/// Writes to standard error without a newline.
func printPartial(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}
