import HTTPServer

/// The other site collections (`/sites/NAME`): which core answers a request, and the web's title.
extension SimulatorCore {
    /// The site collection whose REST API `path` (decoded) names (`/sites/hr/_api/web`), nil for the root site's or
    /// an unknown site's.
    func siteCollection(forAPIPath path: String) -> SimulatorCore? {
        let lower = path.lowercased()
        guard lower.hasPrefix("/sites/") else { return nil }
        let rest = lower.dropFirst("/sites/".count)
        guard let slash = rest.firstIndex(of: "/"), let core = siteCollections[String(rest[..<slash])] else {
            return nil
        }
        let after = rest[slash...]
        return after == "/_api" || after.hasPrefix("/_api/") ? core : nil
    }

    /// The web's `Title`: the team site's, or the site collection's name.
    var webTitle: String {
        guard let name = webRoot.split(separator: "/").last else { return "SPSim Team" }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Every site collection: the root site, then the others in the order the options name them.
    var allSiteCollections: [SimulatorCore] {
        [self] + options.siteCollections.compactMap { siteCollections[$0.lowercased()] }
    }
}
