/// The name of an option, as a typed key: commands declare options with it (`.value(.listen, "ADDRESS:PORT", ...)`)
/// and read them with it (`arguments.value(.listen)`), so a misspelt name does not compile. A program declares one
/// static member per option name in an extension.
public struct OptionKey: Hashable, Sendable {
    /// The name after `--`, e.g. `listen`.
    public let name: String

    /// A key for `name`; programs declare static members with it, and a config file's key is read with it.
    public init(named name: String) { self.name = name }
}
