public import AuthFlow
public import Foundation
import JSON

/// The status app's pages: plain view models (facts the app gathered) and pure renderers that turn them into one
/// self-contained, escaped HTML document or a JSON text. No I/O; the current time is always an input.
///
/// Every string from SharePoint or an identity provider goes through ``HTMLNode`` text or attribute values, so it
/// is escaped; the only raw content is the page's own stylesheet.
public enum StatusPages {
    // MARK: Document

    /// The policy of the `<meta>` element: inline styles, images from the app itself, forms posting to the app.
    /// (`frame-ancestors` only works as a header: see ``headerContentSecurityPolicy``.)
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'"

    /// The policy the app sends as a `Content-Security-Policy` header on every response.
    public static let headerContentSecurityPolicy = contentSecurityPolicy + "; frame-ancestors 'none'"

    /// ``HTMLPage/defaultStylesheet`` plus the status app's few additions (state banners, facts, the gallery, nav).
    public static let stylesheet =
        HTMLPage.defaultStylesheet + "\n"
            + """
            nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0 0 1rem;font-size:.95rem}
            nav a{text-decoration:none}nav a[aria-current]{font-weight:600;text-decoration:underline}
            .state{border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem;border:1px solid}
            .state strong{display:block;font-size:1.05rem}
            .ok{border-color:#1e8e3e;background:rgba(30,142,62,.1)}
            .bad{border-color:#d93025;background:rgba(217,48,37,.12)}
            .bad strong{color:#d93025}
            dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
            dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
            ol.trace{padding-left:1.5rem}ol.trace li{margin:0 0 .25rem}
            button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid var(--accent);\
            background:var(--accent);color:var(--bg);cursor:pointer}
            .gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:1rem;padding:0;\
            list-style:none}
            .gallery figure{margin:0;border:1px solid var(--line);border-radius:.5rem;padding:.5rem}
            .gallery img{display:block;width:100%;height:8rem;object-fit:contain;image-rendering:pixelated}
            .gallery figcaption{font-size:.9rem;overflow-wrap:anywhere}
            .pager{display:flex;gap:1rem;margin:1rem 0}
            th{white-space:nowrap}th,td{overflow-wrap:break-word}form,.table-wrap{margin:0 0 1rem}
            .when{display:block;font-size:.85rem}
            """

    /// A complete document: like ``HTMLPage/render(title:body:stylesheet:language:)`` but with the status app's
    /// policy (images from the app itself are allowed, for the gallery) and stylesheet.
    public static func document(title: String, body: [HTMLNode]) -> String {
        HTMLPage.render(
            title: title, body: body, stylesheet: stylesheet, contentSecurityPolicy: contentSecurityPolicy,
            referrerPolicy: "no-referrer")
    }

    // MARK: Links

    /// How the pages link to each other: app-relative paths, carrying the access token when the app needs one.
    public struct Links: Sendable, Equatable {
        /// The access token added to every link (`?token=…`), or nil on loopback.
        public var token: String?

        /// Creates links; `token` is added to every URL when given.
        public init(token: String? = nil) {
            self.token = token
        }

        /// `path` (already percent-encoded) with `query` pairs (encoded here) and the token.
        public func href(_ path: String, _ query: [(String, String)] = []) -> String {
            var pairs = query
            if let token { pairs.append(("token", token)) }
            guard !pairs.isEmpty else { return path }
            return path + "?" + pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        }

        /// The page of a list: `/lists/<title>`.
        public func list(_ title: String, after: Int? = nil) -> String {
            href("/lists/" + encode(title), after.map { [("after", String($0))] } ?? [])
        }

        /// The gallery of a picture library: `/photos/<title>`.
        public func photos(_ title: String) -> String {
            href("/photos/" + encode(title))
        }

        /// A thumbnail fetched through the app: `/thumb?url=<server-relative URL>`.
        public func thumbnail(_ serverRelativeURL: String) -> String {
            href("/thumb", [("url", serverRelativeURL)])
        }

        /// Percent-encodes everything but RFC 3986 unreserved characters (so `/`, `?`, `&`, `#` are encoded).
        public func encode(_ text: String) -> String {
            var result = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    result.append(Character(Unicode.Scalar(byte)))
                default:
                    let hex = Array("0123456789ABCDEF")
                    result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
                }
            }
            return result
        }
    }

    /// The navigation bar; `current` is the path of the page shown.
    static func navigation(_ links: Links, current: String, pictureLibraries: [String] = []) -> HTMLNode {
        var entries: [(String, String, String)] = [
            ("/", "Session", links.href("/")), ("/lists", "Lists", links.href("/lists")),
        ]
        entries += pictureLibraries.map { ("/photos/" + $0, "Photos: " + $0, links.photos($0)) }
        entries.append(("/status.json", "JSON", links.href("/status.json")))
        return .element(
            "nav", [],
            entries.map { path, label, href in
                .element(
                    "a",
                    [HTMLAttribute("href", href)] + (path == current ? [HTMLAttribute("aria-current", "page")] : []),
                    text: label)
            })
    }

    // MARK: Session

    /// Whether the session works, and if not, why (a stable code for monitors and a sentence for people).
    public enum Health: Sendable, Equatable {
        /// The proof request succeeded.
        case healthy
        /// Not usable: `code` is one of `no-session`, `session-gone`, `sign-in-failed`, `unreachable`,
        /// `access-denied`, `error`; `reason` says what happened and what to do.
        case unhealthy(code: String, reason: String)

        /// Whether the state is ``healthy``.
        public var isHealthy: Bool { self == .healthy }
    }

    /// A cookie's name and expiry: never its value.
    public struct CookieFact: Sendable, Equatable {
        /// The cookie name.
        public var name: String
        /// When it expires; nil for a session cookie.
        public var expires: Date?

        /// Creates a fact.
        public init(name: String, expires: Date?) {
            self.name = name
            self.expires = expires
        }
    }

    /// The last proof request (`GET /_api/web/currentuser`).
    public struct ProofFact: Sendable, Equatable {
        /// When it was sent.
        public var at: Date
        /// How long it took, in milliseconds.
        public var latencyMilliseconds: Int
        /// The user's name as SharePoint reported it, when it succeeded.
        public var userTitle: String?
        /// Why it failed, or nil when it succeeded.
        public var failure: String?

        /// Creates a fact.
        public init(at: Date, latencyMilliseconds: Int, userTitle: String? = nil, failure: String? = nil) {
            self.at = at
            self.latencyMilliseconds = latencyMilliseconds
            self.userTitle = userTitle
            self.failure = failure
        }
    }

    /// One sign-in step as the page shows it: what was sent to which host, and what the engine saw (already
    /// reduced to what holds no secret: host only, names never values).
    public typealias TraceFact = SignInRecord.Step

    /// The profile's last sign-in: one this app ran (the "sign in again" button, or a renewal after the session
    /// ended), or the one `spconnect login` (or another command's renewal) saved beside the session.
    public typealias SignInFact = SignInRecord

    /// Everything the session page and `/status.json` show.
    public struct SessionFacts: Sendable, Equatable {
        /// The profile whose saved session the app uses.
        public var profile: String
        /// The site URL, when a session is known.
        public var siteURL: String?
        /// The sign-in name.
        public var user: String?
        /// The display name, when known (from the proof request or the saved session).
        public var displayName: String?
        /// The flow that produced the session.
        public var flow: String?
        /// When the session was proven at sign-in.
        public var provedAt: Date?
        /// The session's cookies (names and expiries).
        public var cookies: [CookieFact]
        /// The last proof request.
        public var proof: ProofFact?
        /// The profile's last sign-in, whoever ran it.
        public var lastSignIn: SignInFact?
        /// Whether the session works.
        public var health: Health
        /// Whether credentials are available to sign in again (shows the button).
        public var canSignIn: Bool
        /// The per-process token the sign-in form carries.
        public var csrfToken: String

        /// Creates facts.
        public init(
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
    public static func sessionPage(_ facts: SessionFacts, links: Links, now: Date) -> String {
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
                    ok: false, headline: "The last sign-in failed", detail: signIn.message, code: "sign-in-failed"))
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
                        + (signIn.source.map { ", by " + $0 } ?? "") + ": " + signIn.message))
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
        body.append(
            .element(
                "p", [HTMLAttribute("class", "muted")], text: "Checked " + dateText(now) + ". Reload to check again."))
        return document(title: "SPConnect status", body: body)
    }

    /// The facts as JSON for monitors: `healthy`, `state` (`signed-in` or the unhealthy code), `reason`, the
    /// session's facts, cookies (`secondsLeft`, never values), the last proof and sign-in.
    public static func statusJSON(_ facts: SessionFacts, now: Date) -> String {
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func date(_ value: Date?) -> JSONValue { value.map { .string(CellText.iso8601($0)) } ?? .null }
        let (state, reason): (String, String?) =
            switch facts.health {
            case .healthy: ("signed-in", nil)
            case .unhealthy(let code, let reason): (code, reason)
            }
        var members: [(String, JSONValue)] = [
            ("healthy", .bool(facts.health.isHealthy)), ("state", .string(state)),
            ("reason", string(reason)), ("profile", .string(facts.profile)),
            ("site", string(facts.siteURL)), ("user", string(facts.user)),
            ("displayName", string(facts.proof?.userTitle ?? facts.displayName)),
            ("flow", string(facts.flow)), ("provedAt", date(facts.provedAt)),
            (
                "cookies",
                .array(
                    facts.cookies.map { cookie in
                        .object([
                            ("name", .string(cookie.name)), ("expires", date(cookie.expires)),
                            (
                                "secondsLeft",
                                cookie.expires.map {
                                    JSONValue.integer(Int64($0.timeIntervalSince(now).rounded(.down)))
                                } ?? .null
                            ),
                        ])
                    })
            ),
        ]
        members.append(
            (
                "proof",
                facts.proof.map { proof in
                    .object([
                        ("ok", .bool(proof.failure == nil)), ("at", date(proof.at)),
                        ("latencyMilliseconds", .integer(Int64(proof.latencyMilliseconds))),
                        ("error", string(proof.failure)),
                    ])
                } ?? .null
            ))
        members.append(
            (
                "lastSignIn",
                facts.lastSignIn.map { signIn in
                    .object([
                        ("ok", .bool(signIn.succeeded)), ("at", date(signIn.at)),
                        ("source", string(signIn.source)), ("message", .string(signIn.message)),
                        ("steps", .array(signIn.steps.map(traceObject))),
                    ])
                } ?? .null
            ))
        members.append(("canSignIn", .bool(facts.canSignIn)))
        return JSONText.pretty(.object(members)) + "\n"
    }

    /// ``HumanFormat/relative(_:now:)``, with `just now` for `now`.
    static func relative(_ date: Date, now: Date) -> String {
        let text = HumanFormat.relative(date, now: now)
        return text == "now" ? "just now" : text
    }

    /// A trace step on one line: `3. POST 127.0.0.2:443 (filled UserName and Password) → HTTP 200, auto-post`.
    /// The engine's decision is the next step's purpose, so it is shown only for the last step (`isLast`).
    /// `numbered: false` leaves out the step number (for a list that numbers its items).
    public static func traceLine(_ step: TraceFact, isLast: Bool = false, numbered: Bool = true) -> String {
        var text = (numbered ? "\(step.step). " : "") + "\(step.method) \(step.host) (\(step.purpose))"
        var seen: [String] = []
        if let status = step.status { seen.append("HTTP \(status)") }
        if let kind = step.pageKind { seen.append(kind) }
        if isLast, let decision = step.decision { seen.append(decision) }
        if !seen.isEmpty { text += " → " + seen.joined(separator: ", ") }
        return text
    }

    /// A trace step as a JSON object (every field; absent ones `null`; cookie and field names as arrays).
    static func traceObject(_ step: TraceFact) -> JSONValue {
        .object([
            ("step", .integer(Int64(step.step))), ("method", .string(step.method)), ("host", .string(step.host)),
            ("purpose", .string(step.purpose)), ("status", step.status.map { .integer(Int64($0)) } ?? .null),
            ("pageKind", step.pageKind.map(JSONValue.string) ?? .null),
            ("decision", step.decision.map(JSONValue.string) ?? .null),
            ("cookiesSet", .array(step.cookiesSet.map(JSONValue.string))),
            ("fieldsSent", .array(step.fieldsSent.map(JSONValue.string))),
        ])
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

    static func banner(ok: Bool, headline: String, detail: String, code: String? = nil) -> HTMLNode {
        var children: [HTMLNode] = [.element("strong", text: headline), .text(detail)]
        if let code { children.append(.element("span", [HTMLAttribute("class", "muted")], text: " (\(code))")) }
        return .element(
            "div", [HTMLAttribute("class", ok ? "state ok" : "state bad"), HTMLAttribute("role", "status")], children)
    }

    static func factList(_ rows: [(String, HTMLNode)]) -> HTMLNode {
        .element(
            "dl", [HTMLAttribute("class", "facts")],
            rows.flatMap { label, value in [.element("dt", text: label), .element("dd", [], [value])] })
    }

    /// `2026-01-05 09:00 UTC`: stable and unambiguous.
    public static func dateText(_ date: Date) -> String {
        let iso = CellText.iso8601(date)  // 2026-01-05T09:00:00Z
        guard iso.count >= 16 else { return iso }
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
    }

    // MARK: Lists

    /// One list on `/lists`.
    public struct ListRow: Sendable, Equatable {
        /// The list title.
        public var title: String
        /// `ItemCount`.
        public var itemCount: Int?
        /// `LastItemModifiedDate`.
        public var lastModified: Date?
        /// Whether it is a picture library (base template 109): the row links to its gallery too.
        public var isPictureLibrary: Bool

        /// Creates a row.
        public init(title: String, itemCount: Int?, lastModified: Date?, isPictureLibrary: Bool = false) {
            self.title = title
            self.itemCount = itemCount
            self.lastModified = lastModified
            self.isPictureLibrary = isPictureLibrary
        }
    }

    /// `/lists`: every visible list with its item count and last change.
    public static func listsPage(_ rows: [ListRow], links: Links, now: Date) -> String {
        let header = HTMLNode.element(
            "tr", [],
            [
                .element("th", text: "List"), .element("th", [HTMLAttribute("class", "num")], text: "Items"),
                .element("th", text: "Last modified"),
            ])
        let lines = rows.map { row -> HTMLNode in
            var title: [HTMLNode] = [.element("a", [HTMLAttribute("href", links.list(row.title))], text: row.title)]
            if row.isPictureLibrary {
                title += [
                    .text(" · "), .element("a", [HTMLAttribute("href", links.photos(row.title))], text: "gallery"),
                ]
            }
            return .element(
                "tr", [],
                [
                    .element("td", [], title),
                    .element("td", [HTMLAttribute("class", "num")], text: row.itemCount.map(String.init) ?? ""),
                    .element(
                        "td", [],
                        row.lastModified.map { date in
                            [
                                .text(dateText(date)),
                                .element(
                                    "span", [HTMLAttribute("class", "muted when")],
                                    text: HumanFormat.relative(date, now: now)),
                            ]
                        } ?? []),
                ])
        }
        let table = HTMLNode.element(
            "div", [HTMLAttribute("class", "table-wrap")],
            [.element("table", [], [.element("thead", [], [header]), .element("tbody", [], lines)])])
        let libraries = rows.filter(\.isPictureLibrary).map(\.title)
        return document(
            title: "Lists · SPConnect status",
            body: [
                navigation(links, current: "/lists", pictureLibraries: libraries), .element("h1", text: "Lists"),
                rows.isEmpty ? .element("p", [HTMLAttribute("class", "muted")], text: "No lists.") : table,
            ])
    }

    /// One page of a list's items.
    public struct ItemsPage: Sendable, Equatable {
        /// The list title.
        public var listTitle: String
        /// The items as records, with their columns.
        public var items: RecordSet
        /// The item ID the next page starts after, when there is a next page.
        public var nextAfter: Int?
        /// Whether this is not the first page (shows a link back to it).
        public var isContinuation: Bool

        /// Creates a page.
        public init(listTitle: String, items: RecordSet, nextAfter: Int?, isContinuation: Bool) {
            self.listTitle = listTitle
            self.items = items
            self.nextAfter = nextAfter
            self.isContinuation = isContinuation
        }
    }

    /// `/lists/<title>`: a page of items as a table with first/next links.
    public static func itemsPage(_ page: ItemsPage, links: Links) -> String {
        var body: [HTMLNode] = [navigation(links, current: ""), .element("h1", text: page.listTitle)]
        if page.items.records.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No items."))
        } else {
            body.append(HTMLPage.table(page.items))
        }
        var pager: [HTMLNode] = []
        if page.isContinuation {
            pager.append(.element("a", [HTMLAttribute("href", links.list(page.listTitle))], text: "First page"))
        }
        if let next = page.nextAfter {
            pager.append(
                .element(
                    "a",
                    [HTMLAttribute("href", links.list(page.listTitle, after: next)), HTMLAttribute("rel", "next")],
                    text: "Next page"))
        }
        if !pager.isEmpty { body.append(.element("div", [HTMLAttribute("class", "pager")], pager)) }
        return document(title: page.listTitle + " · SPConnect status", body: body)
    }

    // MARK: Photos

    /// One picture in a gallery.
    public struct Photo: Sendable, Equatable {
        /// The title, or the file name when the file has none.
        public var title: String
        /// The file's server-relative URL (the thumbnail is fetched through the app with it).
        public var serverRelativeURL: String
        /// The size in bytes.
        public var size: Int64
        /// When the file was created.
        public var created: Date?

        /// Creates a photo.
        public init(title: String, serverRelativeURL: String, size: Int64, created: Date?) {
            self.title = title
            self.serverRelativeURL = serverRelativeURL
            self.size = size
            self.created = created
        }
    }

    /// `/photos/<title>`: thumbnails (served by the app) with title, size and creation date.
    public static func galleryPage(library: String, photos: [Photo], links: Links) -> String {
        var body: [HTMLNode] = [
            navigation(links, current: "/photos/" + library, pictureLibraries: [library]),
            .element("h1", text: library),
        ]
        if photos.isEmpty {
            body.append(.element("p", [HTMLAttribute("class", "muted")], text: "No pictures."))
        } else {
            body.append(
                .element(
                    "ul", [HTMLAttribute("class", "gallery")],
                    photos.map { photo in
                        .element(
                            "li", [],
                            [
                                .element(
                                    "figure", [],
                                    [
                                        .element(
                                            "img",
                                            [
                                                HTMLAttribute("src", links.thumbnail(photo.serverRelativeURL)),
                                                HTMLAttribute("alt", photo.title), HTMLAttribute("loading", "lazy"),
                                            ]),
                                        .element(
                                            "figcaption", [],
                                            [
                                                .element("strong", text: photo.title), .element("br"),
                                                .element(
                                                    "span", [HTMLAttribute("class", "muted")],
                                                    text: HumanFormat.byteCount(photo.size)
                                                        + (photo.created.map { " · " + dateText($0) } ?? "")),
                                            ]),
                                    ])
                            ])
                    }))
        }
        return document(title: library + " · SPConnect status", body: body)
    }

    // MARK: Errors

    /// A page for a failed request: `title` as the heading, `message` below it, in the red state.
    public static func errorPage(title: String, message: String, links: Links) -> String {
        document(
            title: title + " · SPConnect status",
            body: [
                navigation(links, current: ""), .element("h1", text: title),
                banner(ok: false, headline: title, detail: message),
            ])
    }
}
