import AuthFlow
import Foundation
import Presentation

extension StatusPages {
    // MARK: Session

    /// Whether the session works, and if not, why (a stable code for monitors and a sentence for people).
    enum Health: Sendable, Equatable {
        /// The proof request succeeded.
        case healthy
        /// Not usable: `code` is one of `no-session`, `session-gone`, `sign-in-failed`, `unreachable`,
        /// `access-denied`, `error`; `reason` says what happened and what to do.
        case unhealthy(code: String, reason: String)

        /// Whether the state is ``healthy``.
        var isHealthy: Bool { self == .healthy }
    }

    /// A cookie's name and expiry: never its value.
    struct CookieFact: Sendable, Equatable {
        /// The cookie name.
        var name: String
        /// When it expires; nil for a session cookie.
        var expires: Date?

        /// Creates a fact.
        init(name: String, expires: Date?) {
            self.name = name
            self.expires = expires
        }
    }

    /// The last proof request (`GET /_api/web/currentuser`).
    struct ProofFact: Sendable, Equatable {
        /// When it was sent.
        var at: Date
        /// How long it took, in milliseconds.
        var latencyMilliseconds: Int
        /// The user's name as SharePoint reported it, when it succeeded.
        var userTitle: String?
        /// Why it failed, or nil when it succeeded.
        var failure: String?

        /// Creates a fact.
        init(at: Date, latencyMilliseconds: Int, userTitle: String? = nil, failure: String? = nil) {
            self.at = at
            self.latencyMilliseconds = latencyMilliseconds
            self.userTitle = userTitle
            self.failure = failure
        }
    }

    /// One sign-in step as the page shows it: what was sent to which host, and what the engine saw (already
    /// reduced to what holds no secret: host only, names never values).
    typealias TraceFact = SignInRecord.Step

    /// The profile's last sign-in: one this app ran (the "sign in again" button, or a renewal after the session
    /// ended), or the one `spconnect login` (or another command's renewal) saved beside the session.
    typealias SignInFact = SignInRecord

    /// Everything the session page and `/status.json` show.
    struct SessionFacts: Sendable, Equatable {
        /// The profile whose saved session the app uses.
        var profile: String
        /// The site URL, when a session is known.
        var siteURL: String?
        /// The sign-in name.
        var user: String?
        /// The display name, when known (from the proof request or the saved session).
        var displayName: String?
        /// The flow that produced the session.
        var flow: String?
        /// When the session was proven at sign-in.
        var provedAt: Date?
        /// The session's cookies (names and expiries).
        var cookies: [CookieFact]
        /// How long the session and the identity provider's session last (the `lifetime:` of `spconnect status`).
        var lifetime: String?
        /// How an ended session would be renewed (the `renewal:` of `spconnect status`).
        var renewal: String?
        /// The last proof request.
        var proof: ProofFact?
        /// The profile's last sign-in, whoever ran it.
        var lastSignIn: SignInFact?
        /// Whether the session works.
        var health: Health
        /// Whether credentials are available to sign in again (shows the button).
        var canSignIn: Bool
        /// The per-process token the sign-in form carries.
        var csrfToken: String

        /// Creates facts.
        init(
            profile: String, siteURL: String? = nil, user: String? = nil, displayName: String? = nil,
            flow: String? = nil, provedAt: Date? = nil, cookies: [CookieFact] = [], proof: ProofFact? = nil,
            lastSignIn: SignInFact? = nil, health: Health, canSignIn: Bool = false, csrfToken: String = ""
        ) {
            self.profile = profile
            self.siteURL = siteURL
            self.user = user
            self.displayName = displayName
            self.flow = flow
            self.provedAt = provedAt
            self.cookies = cookies
            self.proof = proof
            self.lastSignIn = lastSignIn
            self.health = health
            self.canSignIn = canSignIn
            self.csrfToken = csrfToken
        }
    }

    /// `/`: the session's state, facts, cookies, the last proof and sign-in, and the sign-in button.
    /// `refreshSeconds` (`--refresh`) makes the page reload itself with a meta refresh.
    static func sessionPage(_ facts: SessionFacts, links: Links, now: Date, refreshSeconds: Int? = nil) -> String {
        var body: [HTMLNode] = [navigation(links, current: "/"), .element("h1", text: "SharePoint session")]
        switch facts.health {
        case .healthy:
            let name = facts.proof?.userTitle ?? facts.displayName ?? facts.user ?? "?"
            body.append(
                banner(ok: true, headline: "Signed in as \(name)", detail: "The proof request succeeded."))
        case .unhealthy(let code, let reason):
            body.append(banner(ok: false, headline: headline(code), detail: reason, code: code))
        }
        if let signIn = facts.lastSignIn, !signIn.succeeded, !isSignInFailure(facts.health) {
            body.append(
                banner(
                    ok: false, headline: "The last sign-in failed", detail: signIn.pageMessage, code: "sign-in-failed"))
        }

        var rows: [(String, HTMLNode)] = [("Profile", .text(facts.profile))]
        if let site = facts.siteURL {
            rows.append(("Site", .element("a", [HTMLAttribute("href", site)], text: site)))
        }
        if let user = facts.user { rows.append(("User", .text(user))) }
        if let name = facts.proof?.userTitle ?? facts.displayName { rows.append(("Name", .text(name))) }
        if let flow = facts.flow { rows.append(("Sign-in flow", .text(flow))) }
        if let provedAt = facts.provedAt {
            rows.append(
                ("Signed in", .text(dateText(provedAt) + " (" + HumanFormat.relative(provedAt, now: now) + ")")))
        }
        if let lifetime = facts.lifetime { rows.append(("Lifetime", .text(lifetime))) }
        if let renewal = facts.renewal { rows.append(("Renewal", .text(renewal))) }
        body.append(factList(rows))

        body.append(.element("h2", text: "Last proof request"))
        if let proof = facts.proof {
            let timing = "in \(proof.latencyMilliseconds) ms, sent " + relative(proof.at, now: now)
            let what = proof.failure.map { " failed " + timing + ": " + $0 } ?? " succeeded " + timing + "."
            body.append(
                .element("p", [], [.element("code", text: "GET /_api/web/currentuser"), .text(what)]))
        } else {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No proof request was sent."))
        }

        body.append(.element("h2", text: "Cookies"))
        if facts.cookies.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No cookies."))
        } else {
            let records = facts.cookies.map { cookie -> Record in
                [
                    "Cookie": .string(cookie.name),
                    "Expires": .string(cookie.expires.map { HumanFormat.expiry($0, now: now) } ?? "end of session"),
                ]
            }
            body.append(HTMLPage.table(RecordSet(columns: [Column("Cookie"), Column("Expires")], records: records)))
        }

        if let signIn = facts.lastSignIn {
            body.append(.element("h2", text: "Last sign-in"))
            body.append(
                .element(
                    "p", [],
                    text: (signIn.succeeded ? "Succeeded " : "Failed ") + relative(signIn.at, now: now)
                        + (signIn.source.map { ", by " + $0 } ?? "") + ": " + signIn.pageMessage))
            body.append(
                .element(
                    "ol",
                    [HTMLAttribute("class", "trace"), HTMLAttribute("start", String(signIn.steps.first?.step ?? 1))],
                    signIn.steps.enumerated().map { index, step in
                        .element(
                            "li", [],
                            text: traceLine(step, isLast: index == signIn.steps.count - 1, numbered: false))
                    }))
        }

        if facts.canSignIn {
            body.append(
                .element(
                    "form", [HTMLAttribute("method", "post"), HTMLAttribute("action", links.href("/signin"))],
                    [
                        .element(
                            "input",
                            [
                                HTMLAttribute("type", "hidden"), HTMLAttribute("name", "csrf"),
                                HTMLAttribute("value", facts.csrfToken),
                            ]),
                        .element("button", [HTMLAttribute("type", "submit")], text: "Sign in again"),
                    ]))
        } else if !facts.health.isHealthy {
            body.append(
                .element(
                    "p", [HTMLAttribute("class", "muted")],
                    text:
                        "To sign in from this page, start the app with SPCONNECT_PASSWORD or SPCONNECT_PASSWORD_FILE set;"
                        + " or run 'spconnect login' and reload."))
        }
        let again = refreshSeconds.map { "This page reloads every \($0) s." } ?? "Reload to check again."
        body.append(.element("p", [HTMLAttribute("class", "muted")], text: "Checked " + dateText(now) + ". " + again))
        return document(title: "SPConnect status", body: body, refreshSeconds: refreshSeconds)
    }

    /// The facts as JSON for monitors: `healthy`, `state` (`signed-in` or the unhealthy code), `reason`, the

    /// The engine's decision is the next step's purpose, so it is shown only for the last step (`isLast`).
    /// `numbered: false` leaves out the step number (for a list that numbers its items).
    static func traceLine(_ step: TraceFact, isLast: Bool = false, numbered: Bool = true) -> String {
        var text = (numbered ? "\(step.step). " : "") + "\(step.method) \(step.host) (\(step.purpose))"
        var seen: [String] = []
        if let status = step.status { seen.append("HTTP \(status)") }
        if let kind = step.pageKind { seen.append(kind) }
        if isLast, let decision = step.decision { seen.append(decision) }
        if !seen.isEmpty { text += " → " + seen.joined(separator: ", ") }
        return text
    }

    static func isSignInFailure(_ health: Health) -> Bool {
        if case .unhealthy("sign-in-failed", _) = health { return true }
        return false
    }

    static func headline(_ code: String) -> String {
        switch code {
        case "no-session": return "Not signed in"
        case "session-gone": return "The session has ended"
        case "sign-in-failed": return "Signing in again failed"
        case "unreachable": return "SharePoint cannot be reached"
        case "access-denied": return "Access denied"
        default: return "The session does not work"
        }
    }
}

extension SignInRecord {
    /// The recorded message followed by its hints in the engine's words (no command-line option: the page is not
    /// the CLI), each a sentence of its own.
    var pageMessage: String {
        ([message] + hints.map { hint in hint.description.prefix(1).uppercased() + hint.description.dropFirst() })
            .joined(separator: " ")
    }
}
