import Foundation
import HTML
import JSON
import TransportValues

/// Signed in means proven: when to try the proof, what its answer says, and the session it gives.
extension SignInMachine {
    /// The proof's turn in ``receive(_:)``: the answer to a proof request, or target cookies that call for one.
    /// Nil lets the sign-in go on (the proof landed on a sign-in page, or there is nothing to prove yet).
    mutating func proofStep(_ response: SignInResponse, record: inout SignInTraceStep) -> SignInAction? {
        if case .proving(var attempt) = phase {
            phase = .navigating
            record.decision = "proof: HTTP \(response.status)"
            var verdict = proofVerdict(response, hops: attempt.hops)
            // Not proven, and no new proof until the sign-in moves on: the proof landed off the target, or a page of
            // the target asked for it and is read as it is.
            var settledForThisStep = attempt.fallsBackToPage
            if case .proven = verdict, let landing = notTheTarget(response, attempt: attempt) {
                verdict = .signInGoesOn
                settledForThisStep = true
                record.decision = "proof: HTTP \(response.status) at \(landing), not the target"
            }
            if case .failed = verdict, attempt.fallsBackToPage { verdict = .signInGoesOn }
            // A web target's proof refused (401, 403) before any credential went, while the page it interrupted is
            // still to be read: cookies a site sets before anyone signs in (a CSRF or pre-sign-in session cookie, the session a passkey's
            // options are kept in) are no session yet, and that page says how the sign-in goes on.
            if case .failed = verdict, [401, 403].contains(response.status), attempt.hops == 0,
                configuration.target.proofURL != nil, !state.passwordSubmitted,
                let interrupted = attempt.interrupted, interrupted.1?.authentication == nil
            {
                verdict = .signInGoesOn
                settledForThisStep = true
            }
            switch verdict {
            case .proven, .failed:
                return .finish(proofOutcome(response))
            case .follow(let location):
                attempt.hops += 1
                record.decision = "proof: HTTP \(response.status) to the same origin"
                return proofRequest(authentication: lastRequest?.authentication, url: location, attempt: attempt)
            case .signInGoesOn:
                guard let (interrupted, request) = attempt.interrupted else {
                    // The proof was the sign-in's first request: the sign-in starts from its answer.
                    record.decision = "proof: HTTP \(response.status), not signed in yet: the sign-in goes on"
                    return nil
                }
                // The cookies were not a session yet: read the answer the proof interrupted, as a browser user
                // who never made the proof would. As if the proof never went: the request that answer answered is
                // the last one again (a 307 repeats it, a challenge answers it), and a later page may be proven
                // again.
                lastRequest = request
                if !settledForThisStep { proofTriedAt = nil }
                record.decision =
                    "proof: HTTP \(response.status), not signed in yet: back to the page received before the proof"
                return continueSignIn(with: interrupted, record: &record)
            }
        }
        guard proofTriedAt != submissions, shouldProve(response) else { return nil }
        proofTriedAt = submissions
        // The sign-in landed on the proof page itself: this answer is the proof.
        if let proofURL = configuration.target.proofURL, response.url == proofURL,
            case .proven = proofVerdict(response, hops: 0)
        {
            record.decision = "signed in: the target page answered HTTP \(response.status) with the session"
            return .finish(proofOutcome(response))
        }
        record.decision = "session cookies present: prove them"
        return proofRequest(
            authentication: lastRequest?.authentication,
            attempt: ProofAttempt(interrupted: (response, lastRequest)))
    }

    /// Why a proof's 2xx answer, reached through `attempt`'s redirects, is not the target (nil when it is): it landed
    /// outside the target's folder, on a page whose query carries the target as the address to return to
    /// (`?next=/projects`: a gate, such as a second-factor checkpoint, before the target), or on a path that names a
    /// sign-in step (`/login`, `/2fa`, `/two_factor`, `/mfa`, `/totp`, `/verify`). A session that only gets a
    /// redirect from the target to such a page opens nothing.
    func notTheTarget(_ response: SignInResponse, attempt: ProofAttempt) -> String? {
        guard attempt.hops > 0, let proofURL = configuration.target.proofURL, let landing = URLParts(response.url),
            let target = URLParts(proofURL)
        else { return nil }
        let landingPath = Self.pathWithoutQuery(response.url)
        let targetPath = Self.pathWithoutQuery(proofURL)
        if landingPath == targetPath { return nil }
        if Self.carriesReturnAddress(response.url, to: targetPath) { return "a page that returns to the target later" }
        let folder =
            targetPath.hasSuffix("/")
            ? targetPath : String(targetPath[...(targetPath.lastIndex(of: "/") ?? targetPath.startIndex)])
        if landing.origin == target.origin, !landingPath.hasPrefix(folder) {
            return "a page outside the target's folder"
        }
        let words = landingPath.split(separator: "/").map(String.init)
        let signInStep: [SignInLexicon.Concept] = [
            .signIn, .secondFactor, .secondFactorMethod, .code, .enroll, .verify, .approve,
        ]
        if words.contains(where: { word in signInStep.contains { SignInLexicon.says($0, in: word) } }) {
            return "a sign-in step"
        }
        return nil
    }

    /// Whether the query of `url` names `targetPath` (plain or percent-encoded) as a value: the address a gate
    /// sends the visitor back to once passed.
    static func carriesReturnAddress(_ url: String, to targetPath: String) -> Bool {
        guard targetPath != "/", let query = URLResolver.components(of: url).query else { return false }
        return query.split(separator: "&").contains { pair in
            guard let equals = pair.firstIndex(of: "=") else { return false }
            let value = String(pair[pair.index(after: equals)...]).replacingOccurrences(of: "+", with: " ")
            let decoded = value.removingPercentEncoding ?? value
            return decoded == targetPath || (decoded.contains("://") && pathWithoutQuery(decoded) == targetPath)
        }
    }

    /// The path of `url` (no query or fragment), `/` when empty.
    static func pathWithoutQuery(_ url: String) -> String {
        let path = URLResolver.components(of: url).path
        return path.isEmpty ? "/" : path
    }

    /// The proof's turn on a page of the web target itself that reads like an error, after the credentials went and
    /// with no sign-in form on it: the target's pages are judged by whether the session opens the target, not by
    /// their words (an application page listing the user's items may well say "error"). Once per submission; when
    /// the proof fails, the page is read as it is.
    mutating func targetPageProof(
        _ page: PageFacts, _ response: SignInResponse, record: inout SignInTraceStep
    ) -> SignInAction? {
        guard case .web(let proofURL) = configuration.target, cookieStory.credentialsWent, page.kind == .error,
            proofTriedAt != submissions, (200...299).contains(response.status),
            URLParts(response.url)?.origin == URLParts(proofURL)?.origin,
            !page.forms.contains(where: \.isSignInForm)
        else { return nil }
        proofTriedAt = submissions
        record.decision = "a page of the target after the credentials went: prove the session before reading it"
        var attempt = ProofAttempt(interrupted: (response, lastRequest))
        attempt.fallsBackToPage = true
        return proofRequest(authentication: lastRequest?.authentication, attempt: attempt)
    }

    /// Sends the proof request (to `url`, else the target's proof URL) as part of `attempt`.
    mutating func proofRequest(
        authentication: Authentication?, url: String? = nil, attempt: ProofAttempt = ProofAttempt()
    ) -> SignInAction {
        let request: SignInRequest
        if let proofURL = configuration.target.proofURL {
            request = SignInRequest(
                url: url ?? proofURL, purpose: .proof, carriesCredentials: authentication != nil,
                authentication: authentication)
        } else {
            // An anonymous visitor has no current user: reading the web proves the site answers without credentials.
            let path =
                configuration.flow == .anonymous
                ? "/_api/web?$select=Title" : "/_api/web/currentuser?$select=Title,LoginName,Email"
            request = SignInRequest(
                url: url ?? URLResolution.join(configuration.siteURL, path),
                headers: [("Accept", "application/json;odata=nometadata")], purpose: .proof,
                carriesCredentials: authentication != nil, authentication: authentication)
        }
        let action = send(request, note: "prove the session with a signed-in request")
        if case .send = action { phase = .proving(attempt) }
        return action
    }

    /// What a proof's answer says.
    enum ProofVerdict {
        case proven, failed
        case follow(String)
        case signInGoesOn
    }

    /// A 2xx on the target's own origin proves the session (for a web page: unless it is itself a sign-in page);
    /// a redirect to the same origin is followed (at most 5); a redirect elsewhere, or a sign-in page, means the
    /// sign-in has not happened yet and goes on (bounded by the step limit); anything else failed.
    func proofVerdict(_ response: SignInResponse, hops: Int) -> ProofVerdict {
        if (300...399).contains(response.status), let location = response.location {
            if URLParts(location)?.origin == URLParts(response.url)?.origin {
                return hops < ProofAttempt.maximumHops ? .follow(location) : .failed
            }
            return .signInGoesOn
        }
        guard (200...299).contains(response.status) else {
            let formsAuth = response.status == 403 && response.header("X-Forms_Based_Auth_Required") != nil
            if formsAuth && submissions == 0 { return .signInGoesOn }
            // A 401 or 403 whose body is a sign-in page (a web application answers every page with its form and
            // that status until signed in): not signed in yet, and the page says how to go on.
            if [401, 403].contains(response.status), configuration.target.proofURL != nil,
                let page = readPage(response), page.kind.continuesSignIn,
                page.kind != .error
                    || page.forms.contains(where: \.isSignInForm)
            {
                return .signInGoesOn
            }
            return .failed
        }
        guard configuration.target.proofURL != nil else { return .proven }
        // The target's own page is judged by the session, not by its words: an error text without a sign-in form
        // on the target's answer is the application's content ("Error log", "0 failed jobs").
        if let page = readPage(response),
            (page.kind.continuesSignIn && !(page.kind == .error && !page.forms.contains(where: \.isSignInForm)))
                || page.refresh?.isFollowed == true
        {
            return .signInGoesOn
        }
        return .proven
    }

    func proofOutcome(_ response: SignInResponse) -> SignInOutcome {
        guard (200...299).contains(response.status) else {
            if response.status == 401 && lastRequest?.authentication != nil {
                return .invalidCredentials(message: "the site refused the credentials (HTTP 401)", code: "401")
            }
            return .unknownPage(
                kind: "the proof request answered HTTP \(response.status): the cookies did not sign in",
                url: response.url, dumpPath: nil)
        }
        let flow = (state.detectedFlow ?? configuration.flow).rawValue
        if let proofURL = configuration.target.proofURL {
            let wanted =
                configuration.targetCookies.isEmpty ? cookieStory.sessionCookieNames : configuration.targetCookies
            return .signedIn(
                Session(
                    siteURL: configuration.siteURL, user: configuration.username, displayName: nil, flow: flow,
                    provedAt: now(), policy: configuration.policy, cookies: response.siteCookies,
                    targetCookies: wanted, staySignedIn: configuration.staySignedIn, proofURL: proofURL))
        }
        let object = try? JSONValue.parse(bytes: response.body)
        let user = object?["d"]?.objectValue != nil ? object?["d"] : object
        let displayName =
            configuration.flow == .anonymous ? nil : user?["Title"]?.stringValue ?? user?["LoginName"]?.stringValue
        return .signedIn(
            Session(
                siteURL: configuration.siteURL, user: configuration.username, displayName: displayName,
                flow: flow, provedAt: now(), policy: configuration.policy,
                cookies: response.siteCookies, targetCookies: configuration.targetCookies,
                staySignedIn: configuration.staySignedIn, loginURL: configuration.loginURL))
    }

    /// Whether to try the proof now. For a web target without `--cookie`: once the sign-in moved on, the target's
    /// origin answers 2xx, and the target now gets cookies it did not have when the credentials went (set by its
    /// own host or, for a parent domain, by a portal beside it). Otherwise: the named target cookies are present
    /// (names or globs) and, after the credentials went, one of them is new or changed.
    func shouldProve(_ response: SignInResponse) -> Bool {
        if case .web(let proofURL) = configuration.target, configuration.targetCookies.isEmpty {
            return submissions > 0 && !cookieStory.sessionCookieNames.isEmpty && (200...299).contains(response.status)
                && URLParts(response.url)?.origin == URLParts(proofURL)?.origin
        }
        return haveTargetCookies(response)
    }

    func haveTargetCookies(_ response: SignInResponse) -> Bool {
        let expected = configuration.expectedCookies
        guard !expected.isEmpty, CookiePatterns.allMatched(expected, by: response.siteCookies.map(\.name)) else {
            return false
        }
        let changed = cookieStory.sessionCookieNames
        return !cookieStory.credentialsWent
            || expected.contains { pattern in CookiePatterns.allMatched([pattern], by: changed) }
    }
}
