/// The arithmetic of pacing by a server's budget: which window the server counts in, how many units it still
/// allows there, and when the next request may go. A plain value (``SharedRateBudget`` keeps it in a file); times
/// are Unix milliseconds.
///
/// The model: the server allows `limit` units per window of `windowMilliseconds` and says where the current window
/// ends (``RateLimitHeaders/resetSeconds``). Within a window the units left are spread evenly over the time left but a
/// ``guardTime`` at its end, so
/// the last of them goes just before the window ends and no sixty seconds hold more than the limit, whether the
/// server counts in fixed windows or in a sliding one. The server's account is believed whenever it is lower than
/// this one (another process of the same app spent units, a request was counted in a window this ledger had closed).
struct RateBudgetLedger: Equatable {
    /// The `scheme://host:port` the budget is for; requests to other origins are not paced.
    var origin: String
    /// Units per window, as the server last said.
    var limit: Int
    /// The window's length (SharePoint Online's: one minute, unless the server names another).
    var windowMilliseconds: Int64
    /// When the current window ends.
    var windowEnd: Int64
    /// Units this ledger may still spend in the current window.
    var remaining: Int
    /// The earliest time of the next request (the even spacing).
    var nextSlot: Int64

    /// A ledger older than this (a job of yesterday) is forgotten: the server may have changed the limit.
    static let forgottenAfter: Int64 = 86_400_000

    /// Units kept back from every window: requests this ledger cannot know about (another process's requests in
    /// flight, one sent at a window's end that the server counts in the next). Two percent of the limit, at least
    /// two.
    var margin: Int { max(2, limit / 50) }

    /// The units a fresh window allows this ledger.
    var usable: Int { max(0, limit - margin) }

    /// The end of a window kept free of sends (an eighth of it, at most a second): a request sent just before the
    /// window ends may reach the server after it (a slow network, a loaded machine), in a window this ledger has
    /// promised whole to others.
    var guardTime: Int64 { min(1000, windowMilliseconds / 8) }

    /// The last moment a send may be made in the current window.
    var sendingEnd: Int64 { windowEnd - guardTime }

    /// The ledger a first `headers` from `origin` start, at `now`, with `unitsInFlight` units sent and not yet
    /// answered (the server may not have counted them yet). Of what is left in this first window it plans only half:
    /// the other processes of the profile sent requests before any ledger existed, and their units in flight are
    /// known to nobody (two jobs of eight workers each overran a small window by their count). From the next window
    /// on every request of every process is in the ledger.
    init(origin: String, first headers: RateLimitHeaders, at now: Int64, unitsInFlight: Int) {
        self.origin = origin
        limit = headers.limit
        windowMilliseconds = Int64(headers.windowSeconds ?? 60) * 1000
        windowEnd = now + Int64(headers.resetSeconds) * 1000
        remaining = 0
        nextSlot = now
        remaining = max(0, headers.remaining - unitsInFlight - margin) / 2
    }

    /// Reserves `units` for a request wanting to go at `now` and returns the time it may go (`now` or later).
    mutating func reserve(_ units: Int, now: Int64) -> Int64 {
        var slot = max(now, nextSlot)
        closeWindows(before: slot)
        if remaining < units || slot >= sendingEnd {
            // Not in this window: at the start of the next one.
            slot = max(slot, windowEnd)
            closeWindows(before: slot)
        }
        let spacing = Double(sendingEnd - slot) / Double(max(remaining, 1))
        nextSlot = slot + Int64((spacing * Double(units)).rounded(.up))
        remaining = max(0, remaining - units)
        return slot
    }

    /// Takes in what the server said at `now`, with `unitsInFlight` units of this process still unanswered.
    mutating func observe(_ headers: RateLimitHeaders, at now: Int64, unitsInFlight: Int) {
        limit = headers.limit
        if let seconds = headers.windowSeconds { windowMilliseconds = Int64(seconds) * 1000 }
        let end = now + Int64(headers.resetSeconds) * 1000
        let reported = max(0, headers.remaining - unitsInFlight - margin)
        if end > windowEnd + windowMilliseconds / 2 {
            // The server is in a later window than this ledger thought.
            windowEnd = end
            remaining = reported
            nextSlot = min(nextSlot, now)
        } else if end >= windowEnd - windowMilliseconds / 2 {
            // The same window. The server rounds the seconds left up and its answer takes time to arrive, so every
            // answer's end is at or after the true one: the earliest yet is the nearest. And the lower account.
            windowEnd = min(windowEnd, end)
            remaining = min(remaining, reported)
        }
        // Else an answer counted in a window that has closed: nothing new.
    }

    /// Whether the ledger still describes the server at `now`: not a day old, and not a window further ahead than
    /// one can be (this machine's clock was set back since).
    func isCurrent(at now: Int64) -> Bool {
        now - windowEnd < Self.forgottenAfter && windowEnd - now <= 2 * windowMilliseconds
    }

    /// Moves to the window holding `time`, with a fresh allowance, when the current one has ended before it.
    private mutating func closeWindows(before time: Int64) {
        guard time >= windowEnd else { return }
        let windows = (time - windowEnd) / windowMilliseconds + 1
        windowEnd += windows * windowMilliseconds
        remaining = usable
    }

    // MARK: The file's line

    /// `origin limit window windowEnd remaining nextSlot`, one line of ASCII.
    var line: String { "\(origin) \(limit) \(windowMilliseconds) \(windowEnd) \(remaining) \(nextSlot)\n" }

    /// The ledger a file's line holds, nil for anything else (a torn or foreign file is no ledger).
    init?(line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard words.count == 6, let limit = Int(words[1]), let window = Int64(words[2]), let end = Int64(words[3]),
            let remaining = Int(words[4]), let slot = Int64(words[5]), limit > 0, window > 0, remaining >= 0
        else { return nil }
        origin = words[0]
        self.limit = limit
        windowMilliseconds = window
        windowEnd = end
        self.remaining = remaining
        nextSlot = slot
    }
}
