/// SharePoint Online's throttling by resource units, as the simulator plays it (off unless
/// ``SimulatorOptions/resourceBudgets`` is set; `--budgets SPEC` on the command line).
///
/// Documented (Microsoft's "Avoid getting throttled or blocked in SharePoint Online"): each app has a budget of
/// resource units per tenant per minute and per day, the tenant one for all apps together; a request costs 1, 2 or 5
/// units (``ResourceCost``); every request in a `$batch` counts; `RateLimit-Limit`, `-Remaining` and `-Reset` are sent
/// once an app has used 80 % of its minute; an app over its budget gets 429 with `Retry-After`, one over its day
/// 503; undecorated traffic is throttled first.
///
/// Inferred, and so configurable: the windows are fixed (each minute and day counted from the simulator's start); a
/// throttled request still counts against the budgets; `Retry-After` is the time left in the window unless
/// ``retryAfterSeconds`` fixes it (users report 120 s); undecorated traffic (a `User-Agent` not starting with
/// `NONISV|` or `ISV|`) gets ``undecoratedShare`` of each budget.
public struct ResourceBudgetModel: Sendable, Equatable {
    /// Units per minute per app (small tenants: about 1,250).
    public var appPerMinute = 1250
    /// Units per day per app (small tenants: about 1.2 million).
    public var appPerDay = 1_200_000
    /// Units per minute for all apps together (small tenants: 18,750 per five minutes).
    public var tenantPerMinute = 3750
    /// Units per day for all apps together.
    public var tenantPerDay = 6_000_000
    /// `Retry-After` of a 429 or 503; nil: the seconds left in the window that is spent.
    public var retryAfterSeconds: Int?
    /// The part of each budget undecorated traffic may use.
    public var undecoratedShare = 0.8
    /// The length of the "minute" windows, in seconds. Tests shorten it; when it is not 60 the answers name it in
    /// the IETF draft's `RateLimit-Policy: LIMIT;w=SECONDS` (SharePoint Online sends no policy: its window is a
    /// minute).
    public var windowSeconds = 60

    /// A small tenant's budgets.
    public init() {}

    /// Errors in a budget specification.
    public typealias ParseError = SpecError

    /// Parses `app=1250,appDay=1200000,tenant=3750,tenantDay=6000000,retryAfter=120,undecorated=0.8,window=60`; keys left out
    /// keep a small tenant's figures. An empty specification is a small tenant.
    public init(parsing spec: String) throws {
        self.init()
        for (key, value) in SpecPairs.parse(spec) {
            func units() throws -> Int {
                guard let parsed = Int(value), parsed > 0 else {
                    throw ParseError(description: "budget '\(key)' needs a number of units above 0, got '\(value)'")
                }
                return parsed
            }
            switch key.lowercased() {
            case "app": appPerMinute = try units()
            case "appday": appPerDay = try units()
            case "tenant": tenantPerMinute = try units()
            case "tenantday": tenantPerDay = try units()
            case "retryafter": retryAfterSeconds = try units()
            case "window": windowSeconds = try units()
            case "undecorated":
                guard let share = Double(value), share > 0, share <= 1 else {
                    throw ParseError(
                        description: "budget 'undecorated' is a share above 0 and at most 1, got '\(value)'")
                }
                undecoratedShare = share
            default:
                throw ParseError(
                    description:
                        "unknown budget '\(key)' (app, appDay, tenant, tenantDay, retryAfter, undecorated, window)")
            }
        }
    }
}
