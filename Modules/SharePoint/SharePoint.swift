/// The SharePoint REST object model (Domain layer). See docs/architecture.md.
public enum SharePointInfo {
    /// The REST API root relative to a site URL.
    public static let apiRoot = "/_api"
}
