/// Output formats the apps can render.
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, ndjson, csv
}
