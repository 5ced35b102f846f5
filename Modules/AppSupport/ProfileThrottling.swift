package import AuthFlow
import SharePoint
package import Transport

/// How the clients of one profile share SharePoint's throttling: every process of the profile backs off together
/// after a 429 or 503 (``SharedBackoff``), and spends the tenant's resource-unit budget together at the rate the
/// server states (``SharedRateBudget``, each request costed by ``ResourceUnits``).
package enum ProfileThrottling {
    /// `configuration` with the profile's shared back-off and budget.
    package static func applied(
        to configuration: HTTPClient.Configuration, store: SessionStore, profile: String
    ) -> HTTPClient.Configuration {
        var configuration = configuration
        configuration.sharedBackoff = store.sharedBackoff(for: profile)
        configuration.rateBudget = store.sharedRateBudget(for: profile)
        configuration.requestCost = { ResourceUnits.cost(of: $0) }
        return configuration
    }
}
