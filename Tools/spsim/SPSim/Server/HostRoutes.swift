import HTTPServer

/// Every URL of the three hosts, one route each, checked in order: the map from a request to the file that answers it.
/// An endpoint more is one line in its host's table (REST endpoints below `/_api`: `REST/RESTRoutes.swift`).
extension SimulatorCore {
    // MARK: SharePoint (127.0.0.1)

    /// The site's endpoints after the gates of `handleSharePoint`; a path no route takes is a page or file by URL.
    static let siteRoutes: [Route] = [
        Route(.path("/_layouts/15/authenticate.aspx"), .path("/_layouts/authenticate.aspx")) {
            $0.authenticatePage($1)
        },
        Route(.path("/_forms/default.aspx")) { $0.formsEndpoint($1) },
        Route("POST", .path(FormsSecondFactor.fbaVerifyPath)) { $0.fbaSecondFactorAnswer($1) },
        Route(.path("/_trust"), .path("/_trust/"), .path("/_trust/default.aspx")) { $0.trustEndpoint($1) },
        Route(.path("/_login/default.aspx")) { $0.providerChooser($1) },
        Route(.path("/_windows/default.aspx")) { $0.windowsSignIn($1) },
        Route(.path("/_vti_bin/authentication.asmx")) { $0.fbaSOAPLogin($1) },
        // The tenant discovery probe: an empty (or any) bearer token gets the challenge with the realm.
        Route(.path("/_vti_bin/client.svc"), when: { $0.isOnline && $0.bearerToken($1) != nil }) { core, _ in
            core.bearerChallenge("Invalid JWT token. No certificate thumbprint specified in token header.")
        },
        Route(.path("/_vti_bin/idcrl.svc"), .path("/_vti_bin/idcrl.svc/")) { $0.idcrlEndpoint($1) },
        Route(.path("/_layouts/15/error.aspx")) { core, _ in core.sharePointErrorPage() },
        Route(.path("/_api"), .below("/_api/")) { $0.restEndpoint($1) },
        Route(.below("/sites/"), when: { $0.siteCollection(forAPIPath: $1.path) != nil }) { $0.restEndpoint($1) },
        Route(.anyPath, when: { $0.isWebDAVRequest($1) }) { $0.webDAV($1) },
    ]

    func handleSharePoint(_ request: HTTPServerRequest) -> HTTPServerResponse {
        // Gates in front of every URL: Basic on every request, Windows authentication on any URL.
        if options.mode == .basic, authenticatedUser(request) == nil {
            return basicChallenge()
        }
        if options.mode == .fbaWindows, let message = ntlmMessage(request) {
            // Type 1 → challenge; a bad Type 3 → 401 again.
            if le32(message, 8) == 1 { return ntlmChallengeResponse() }
            if ntlmUser(request) == nil { return windowsChallenge() }
        }
        return Self.siteRoutes.answer(request, core: self) ?? contentPage(request)
    }

    // MARK: Identity provider (127.0.0.2)

    /// The identity provider's endpoints: the legacy STS, ADFS (`adfs` and `legacy-spo` modes), Entra (`entra` and
    /// `legacy-spo`); a path no route takes is 404.
    static let identityProviderRoutes: [Route] =
        [
            Route(.path("/jsdisabled")) { core, _ in core.javaScriptRequiredPage() },
            Route(.path("/getuserrealm.srf")) { $0.getUserRealm($1) },
            Route(.path("/extsts.srf")) { $0.extSTS($1) },
            Route("POST", .path("/login.srf"), when: { core, _ in core.isOnline }) { $0.entraFederationReturn($1) },
        ]
        // In `entra` mode ADFS is the federated organisation's own host (127.0.0.3), not Entra's.
        + adfsRoutes(when: { core, _ in core.options.mode == .adfs || core.options.mode == .legacySPO })
        + [
            Route(.below("/adfs/")) { core, _ in core.notFound() },
            Route(.anyPath, when: { core, _ in !core.isOnline }) { core, _ in core.notFound() },
            // The Entra tenant's test hooks and token endpoints.
            Route("POST", .segments(["_spsim", "devicecode"])) { $0.deviceCodeHook($1) },
            Route(.segments(["_spsim", "assertions"])) { core, _ in core.receivedAssertions() },
            Route(.segments(["devicelogin"])) { core, _ in core.deviceLoginPage() },
            Route(.segments(["*", "v2.0", ".well-known", "openid-configuration"])) {
                $0.openIDConfiguration($1.lowercasedSegments[0])
            },
            Route(.segments(["*", "discovery", "v2.0", "keys"]), .segments(["*", "discovery", "keys"])) { core, _ in
                core.signingKeys()
            },
            Route("POST", .segments(["*", "oauth2", "v2.0", "devicecode"])) { $0.deviceAuthorization($1) },
            Route(
                "POST", .segments(["*", "oauth2", "v2.0", "token"]), .segments(["*", "oauth2", "token"]),
                when: { $1.formValue("grant_type") != "password" }
            ) { $0.grantedTokens($1) },
            // Entra's browser sign-in.
            Route(.segments(["*", "oauth2", "authorize"])) { $0.entraAuthorize($1) },
            Route(.segments(["*", "oauth2", "v2.0", "token"]), .segments(["*", "oauth2", "token"])) {
                $0.entraToken($1)
            },
            Route("POST", .segments(["*", "login"])) { $0.entraLogin($1) },
            // FIDO2: Entra serves fido/get on login.microsoft.com; here on the identity provider's own host.
            Route("POST", .segments(["*", "fido", "get"])) { $0.entraFidoGet($1) },
            Route("GET", .segments(["*", "resume"])) { $0.entraResume($1) },
            // Graph's passkey registration, below /graph/v1.0 and /graph/beta (graph.microsoft.com in Entra).
            Route(.below("/graph/")) { $0.graphEndpoint($1) },
            Route("POST", .path("/kmsi")) { $0.entraKMSI($1) },
            Route("POST", .path("/appverify")) { $0.entraConfirmation($1) },
            Route("POST", .segments(["*", "skipmfaregistration"])) { $0.entraSkipRegistration($1) },
            Route(.segments(["*", "wrongplace"])) { core, _ in core.wrongPlacePage() },
            Route(.segments(["*", "oauth2", "nativeclient"])) { core, _ in core.nativeClientPage() },
            Route(.segments(["*", "getcredentialtype"])) { $0.entraCredentialType($1) },
            Route(.segments(["*", "sas", "beginauth"])) { $0.entraBeginAuth($1) },
            Route(.segments(["*", "sas", "endauth"])) { $0.entraEndAuth($1) },
            Route(.segments(["*", "sas", "processauth"])) { $0.entraProcessAuth($1) },
            Route(.segments(["*", "sas", "*"])) { core, _ in core.notFound() },
            Route(.endingIn("proofup"), .endingIn("changepassword")) { $0.entraDeadEnd($1) },
        ]

    func handleIdentityProvider(_ request: HTTPServerRequest) -> HTTPServerResponse {
        Self.identityProviderRoutes.answer(request, core: self) ?? notFound()
    }

    // MARK: Federated organisation (127.0.0.3, `entra` mode)

    /// ADFS's endpoints, on the identity-provider host or the federated organisation's, taken when `condition` holds.
    static func adfsRoutes(when condition: Route.Condition?) -> [Route] {
        [
            Route(.path("/adfs/ls"), .path("/adfs/ls/"), when: condition) { $0.adfsPassive($1) },
            Route(
                .below("/adfs/services/trust/13/usernamemixed"), .below("/adfs/services/trust/2005/usernamemixed"),
                when: condition
            ) { $0.adfsUsernameMixed($1) },
        ]
    }

    /// The federated organisation's host: its ADFS and nothing else.
    static let federationRoutes: [Route] = adfsRoutes(when: nil)

    func handleFederation(_ request: HTTPServerRequest) -> HTTPServerResponse {
        Self.federationRoutes.answer(request, core: self) ?? notFound()
    }
}
