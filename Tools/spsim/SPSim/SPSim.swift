/// The simulator's version, printed by `spsim --version`.
public enum SPSimInfo {
    public static let version = "0.1.0"
}
