import AuthFlow
import CommandLineKit
import Foundation
import JSON
import Presentation
import SharePoint

/// What `whoami` and `status` show of a token session: the kind, the app, the expiry, and (app-only) the app's roles,
/// since SharePoint's `/currentuser` has no user for an app.
extension TokenLogin {
    /// `whoami` of a token session: proven by reading the web (app-only) or the current user (device code).
    static func whoami(_ arguments: ParsedArguments, context: SessionContext) async throws -> ExitCode {
        let output = try Output(arguments)
        let site = try SiteContext.open(arguments, session: context).site
        guard context.session.tokens?.kind == .appOnly else {
            let user = try await site.currentUser()
            let tokens = await context.tokens?.current.tokens
            var fields = SharePointRecords.record(user: user).fields
            fields += tokenFields(tokens)
            output.renderOne(
                Record(fields), columns: SharePointRecords.userColumns + tokenColumns(app: false))
            output.note("Signed in at \(site.siteURL) (profile '\(context.profile)').")
            return .ok
        }
        let web = try await site.web()
        let tokens = await context.tokens?.current.tokens
        let record = Record(
            [Presentation.Field("kind", .string("app")), Presentation.Field("web", .string(web.title))]
                + tokenFields(tokens))
        output.renderOne(
            record,
            columns: [Column("kind", title: "Kind"), Column("web", title: "Web")] + tokenColumns(app: true))
        output.note(
            "Signed in as an app (no user: SharePoint's current user is empty for app-only tokens) at "
                + "\(site.siteURL) (profile '\(context.profile)').")
        return .ok
    }

    /// The token set's fields: flow, app id, tenant, expiry, and the permissions the token carries.
    static func tokenFields(_ tokens: TokenSet?) -> [Presentation.Field] {
        guard let tokens else { return [] }
        let claims = tokens.claims
        return [
            Presentation.Field("flow", .string(tokens.kind.rawValue)),
            Presentation.Field("appId", .string(tokens.appId)),
            Presentation.Field("tenant", .string(tokens.tenant)),
            Presentation.Field("expires", .date(tokens.expiresAt)),
            Presentation.Field(
                tokens.kind == .appOnly ? "roles" : "scopes",
                .json(.array((tokens.kind == .appOnly ? claims.roles : claims.scopes).map { JSONValue.string($0) }))),
        ]
    }

    static func tokenColumns(app: Bool) -> [Column] {
        [
            Column("flow", title: "Flow"), Column("appId", title: "App id"), Column("tenant", title: "Tenant"),
            Column("expires", title: "Token expires"),
            Column(app ? "roles" : "scopes", title: app ? "Roles" : "Scopes"),
        ]
    }
}
