/// A secret (password, token) that never shows up in logs, traces, `print` or `dump` output.
///
/// The raw text is read only through `revealedValue()`, so every place that needs it is easy to find.
/// A plain immutable value: safe to share across threads.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    private let storage: String

    /// Wraps a secret text.
    public init(_ value: String) { storage = value }

    /// The raw secret. Call it only where the value is handed to the wire (libcurl).
    public func revealedValue() -> String { storage }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `Secret(<redacted>)`.
    public var debugDescription: String { "Secret(<redacted>)" }
    /// Hides the stored text from `dump` and mirrors.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
