public import Transport

extension SharePointError {
    /// What went wrong, as far as a client can act on it: compare it (`error.kind == .listNotFound`) or switch on it,
    /// with a `default:`.
    ///
    /// An open set of codes: a later version may add one without breaking a client's `switch` (private storage
    /// behind static members, as async-http-client's `HTTPClientError` keeps its codes). Two kinds are equal when
    /// their codes are; what some codes carry is read from ``retryAfter``, ``loginURL``, ``detail`` and
    /// ``transportKind``.
    public struct Kind: Sendable, Equatable {
        enum Code: Sendable, Equatable {
            case listNotFound, itemNotFound, fileNotFound, notFound, thresholdExceeded, throttled, digestExpired
            case formsAuthRequired, authenticationRequired, accessDenied, preconditionFailed, conflict, alreadyExists
            case badRequest, flavorNotAccepted, server, unexpectedResponse, transport, localFile
        }

        /// The code itself (module-internal: clients compare kinds).
        let code: Code
        /// For ``throttled``: the seconds the server asked to wait (`Retry-After`), when it said.
        public let retryAfter: Int?
        /// For ``formsAuthRequired``: the login page the server named.
        public let loginURL: String?
        /// For ``unexpectedResponse``: what in the body was not as expected.
        public let detail: String?
        /// For ``transport``: Transport's own kind of failure.
        public let transportKind: TransportError.Kind?

        private init(
            _ code: Code, retryAfter: Int? = nil, loginURL: String? = nil, detail: String? = nil,
            transportKind: TransportError.Kind? = nil
        ) {
            self.code = code
            self.retryAfter = retryAfter
            self.loginURL = loginURL
            self.detail = detail
            self.transportKind = transportKind
        }

        /// Equal codes (what a code carries is not compared).
        public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.code == rhs.code }

        /// 404, `-1, System.ArgumentException`: no list with that title or id.
        public static let listNotFound = Kind(.listNotFound)
        /// 404 for a request addressing `items(ID)`, or 404 `-2147024809, System.ArgumentException`:
        /// "Item does not exist. It may have been deleted by another user."
        public static let itemNotFound = Kind(.itemNotFound)
        /// 404, `-2130575338` (`SPException`) or `-2147024894` (`System.IO.FileNotFoundException`).
        public static let fileNotFound = Kind(.fileNotFound)
        /// Some other 404.
        public static let notFound = Kind(.notFound)
        /// 500 `SPQueryThrottledException` (`-2147024860`): the query exceeds the list view threshold.
        public static let thresholdExceeded = Kind(.thresholdExceeded)
        /// 429 or 503: throttled; wait `retryAfter` seconds (when the server said) before retrying.
        public static let throttled = Kind(.throttled)
        /// A ``throttled`` error carrying its ``retryAfter``.
        package static func throttled(retryAfter: Int?) -> Kind { Kind(.throttled, retryAfter: retryAfter) }
        /// 403, `-2130575252` / `-2130575251`: the request digest is missing or expired.
        public static let digestExpired = Kind(.digestExpired)
        /// 403 with `X-Forms_Based_Auth_Required`: not signed in or the session expired; sign in again.
        public static let formsAuthRequired = Kind(.formsAuthRequired)
        /// A ``formsAuthRequired`` error carrying its ``loginURL``.
        package static func formsAuthRequired(loginURL: String) -> Kind { Kind(.formsAuthRequired, loginURL: loginURL) }
        /// 401 without an access-denied body: credentials missing or rejected; sign in again.
        public static let authenticationRequired = Kind(.authenticationRequired)
        /// 403/401 `System.UnauthorizedAccessException`, or a plain 403: no permission.
        public static let accessDenied = Kind(.accessDenied)
        /// 412: the `IF-MATCH` etag no longer matches (someone else changed the item).
        public static let preconditionFailed = Kind(.preconditionFailed)
        /// 409: conflicting change (for example a file that is checked out or locked).
        public static let conflict = Kind(.conflict)
        /// 500, `-2130575342`: a list (or similar object) with that title already exists; 400, `-2130575257`: a file
        /// with that name already exists (an upload that does not overwrite).
        public static let alreadyExists = Kind(.alreadyExists)
        /// 400: the request was malformed or an argument was invalid.
        public static let badRequest = Kind(.badRequest)
        /// 406: the server does not speak the JSON flavour asked for (SharePoint 2013 before SP1 knows only
        /// `odata=verbose`).
        public static let flavorNotAccepted = Kind(.flavorNotAccepted)
        /// Any other non-success status.
        public static let server = Kind(.server)
        /// A 2xx response whose body could not be read as expected (detail in ``SharePointError/message``).
        public static let unexpectedResponse = Kind(.unexpectedResponse)
        /// A ``unexpectedResponse`` error carrying its ``detail``.
        package static func unexpectedResponse(_ detail: String) -> Kind { Kind(.unexpectedResponse, detail: detail) }
        /// No HTTP answer: the exchange failed in Transport (DNS, connect, TLS, timeout, dropped connection,
        /// cancellation, or a local file Transport read or wrote). Transport's own sentence is in
        /// ``SharePointError/message``.
        public static let transport = Kind(.transport)
        /// A ``transport`` error carrying its ``transportKind``.
        package static func transport(carrying kind: TransportError.Kind) -> Kind {
            Kind(.transport, transportKind: kind)
        }
        /// A local file could not be read, created, renamed or removed (download destination, upload source).
        public static let localFile = Kind(.localFile)
    }
}

extension SharePointError {
    /// What went wrong in a word or two, for a per-file result cell: `not found`, `access denied`, `throttled`,
    /// `local file`, `network`, `HTTP 500`, or `error`.
    public var briefReason: String {
        switch kind {
        case .fileNotFound, .notFound: return "not found"
        case .accessDenied: return "access denied"
        case .throttled: return "throttled"
        case .localFile: return "local file"
        case .transport where kind.transportKind == .io: return "local file"
        case .transport: return "network"
        default: return status > 0 ? "HTTP \(status)" : "error"
        }
    }
}
