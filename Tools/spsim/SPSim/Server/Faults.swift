import Foundation
import HTTPServer

/// Injected misbehaviour. Parse from `latency=200,status429=3,retryAfter=1,drop=/path,...`.
public struct FaultSpec: Sendable, Equatable {
    /// Extra delay before every answer, in milliseconds.
    public var latencyMilliseconds: Int = 0
    /// The first N `/_api` requests answer 429 with `Retry-After`.
    public var status429: Int = 0
    /// The first N `/_api` requests (after any 429s) answer 503 with `Retry-After`.
    public var status503: Int = 0
    /// The first N `/_api` requests (after 429s and 503s) answer 500.
    public var status500: Int = 0
    /// Seconds sent in `Retry-After`.
    public var retryAfterSeconds: Int = 1
    /// The injected 429s and 503s carry no `Retry-After` at all (the client must fall back to its own back-off).
    public var noRetryAfter: Bool = false
    /// Responses whose path contains this text are cut off mid-body (connection dropped).
    public var dropPath: String?
    /// How many responses to drop (nil = every matching one).
    public var dropTimes: Int?
    /// How many matching responses are answered whole before the drops begin (a failure mid-run, after a
    /// command has started its output).
    public var dropAfter: Int = 0
    /// Responses whose path contains this text are sent slowly, 1 KiB per `dripDelayMilliseconds`.
    public var dripPath: String?
    public var dripDelayMilliseconds: Int = 50
    /// Server-side FedAuth lifetime in seconds (nil = 10 hours).
    public var cookieLifetimeSeconds: Int?
    /// Form digest lifetime in seconds (default 1800).
    public var digestLifetimeSeconds: Int = 1800
    /// `authenticate.aspx` and `/_forms/default.aspx` redirect to each other forever.
    public var redirectLoop: Bool = false

    public init() {}

    /// Errors in a fault specification.
    public typealias ParseError = SpecError

    /// Parses `key=value` pairs separated by commas; `redirectLoop` and `noRetryAfter` are bare flags.
    public init(parsing spec: String) throws {
        self.init()
        for (key, value) in SpecPairs.parse(spec) {
            func number() throws -> Int {
                guard let parsed = Int(value), parsed >= 0 else {
                    throw ParseError(description: "fault '\(key)' needs a non-negative number, got '\(value)'")
                }
                return parsed
            }
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "", "1", "true": return true
                case "0", "false": return false
                default: throw ParseError(description: "fault '\(key)' is a flag (true or false), got '\(value)'")
                }
            }
            switch key.lowercased() {
            case "latency": latencyMilliseconds = try number()
            case "status429", "429": status429 = try number()
            case "status503", "503": status503 = try number()
            case "status500", "500": status500 = try number()
            case "retryafter": retryAfterSeconds = try number()
            case "noretryafter": noRetryAfter = try flag()
            case "drop": dropPath = value.isEmpty ? "/" : value
            case "droptimes": dropTimes = try number()
            case "dropafter": dropAfter = try number()
            case "drip": dripPath = value.isEmpty ? "/" : value
            case "dripdelay": dripDelayMilliseconds = try number()
            case "cookielifetime": cookieLifetimeSeconds = try number()
            case "digestlifetime": digestLifetimeSeconds = try number()
            case "redirectloop": redirectLoop = value.isEmpty || value == "1" || value == "true"
            default: throw ParseError(description: "unknown fault '\(key)'")
            }
        }
    }
}

/// Faults applied to requests and answers: the throttling of `/_api`, connection drops and slow drip.
extension SimulatorCore {
    /// The injected 429, 503 or 500 for this `/_api` request (counted from the first), nil when its turn is past.
    func injectedAPIFault(_ request: HTTPServerRequest, flavour: Flavour) -> HTTPServerResponse? {
        let (faults, number) = state.withLock { state -> (FaultSpec, Int) in
            defer { state.apiRequests += 1 }
            return (state.injectedFaults ?? options.faults, state.apiRequests)
        }
        let throttled = takeThrottledAnswer(request)
        if throttled || number < faults.status429 + faults.status503 {
            let status = throttled || number < faults.status429 ? 429 : 503
            let text = status == 429 ? "Too Many Requests" : "Service Unavailable"
            let retryAfter = faults.noRetryAfter ? [] : [("Retry-After", String(faults.retryAfterSeconds))]
            return HTTPServerResponse(
                status: status, contentType: "text/plain; charset=utf-8", text: text,
                headers: retryAfter + standardHeaders())
        }
        if number < faults.status429 + faults.status503 + faults.status500 {
            return errorResponse(
                RESTError(
                    status: 500, code: "-2146233088, System.InvalidOperationException",
                    message: "Simulated server error."),
                flavour: flavour)
        }
        return nil
    }

    /// Connection drops and slow drip, applied to any answer whose path matches.
    func applyBodyFaults(_ response: HTTPServerResponse, path: String) -> HTTPServerResponse {
        let faults = state.withLock { $0.injectedFaults } ?? options.faults
        let lower = path.lowercased()
        if let drop = faults.dropPath, lower.contains(drop.lowercased()) {
            let shouldDrop = state.withLock { state -> Bool in
                state.dropMatches += 1
                if state.dropMatches <= faults.dropAfter { return false }
                if let limit = faults.dropTimes, state.dropped >= limit { return false }
                state.dropped += 1
                return true
            }
            if shouldDrop {
                var changed = response
                let producer = BodyProducer(response.body)
                let total = producer.length ?? 2048
                let cut = Counter()
                changed.body = .stream(length: max(total, 2)) {
                    if cut.next() == 0 {
                        let half = producer.take(max(total / 2, 1))
                        return half.isEmpty ? .abort : .data(half)
                    }
                    return .abort
                }
                return changed
            }
        }
        if let drip = faults.dripPath, lower.contains(drip.lowercased()) {
            var changed = response
            let producer = BodyProducer(response.body)
            let delay = faults.dripDelayMilliseconds
            changed.body = .stream(length: producer.length) {
                let bytes = producer.take(1024)
                if bytes.isEmpty { return .end }
                usleep(UInt32(delay) * 1000)
                return .data(bytes)
            }
            return changed
        }
        return response
    }
}

/// The faults and measurements a test sets while the simulator runs (``Simulator/throttle(next:whereQueryContains:)``,
/// ``Simulator/peakConcurrentRequests``).
extension SimulatorCore {
    /// Whether this REST request is one of those ``Simulator/throttle(next:whereQueryContains:)`` asked to throttle
    /// (and counts it).
    func takeThrottledAnswer(_ request: HTTPServerRequest) -> Bool {
        throttling.withLock { throttling in
            guard throttling.count > 0 else { return false }
            if let text = throttling.queryText, !request.query.contains(where: { $0.value.contains(text) }) {
                return false
            }
            throttling.count -= 1
            return true
        }
    }

    /// Counts a request in, keeping the most at once.
    func countInFlight() {
        let now = inFlight.wrappingAdd(1, ordering: .relaxed).newValue
        var peak = peakInFlight.load(ordering: .relaxed)
        while now > peak {
            let (exchanged, original) = peakInFlight.compareExchange(expected: peak, desired: now, ordering: .relaxed)
            if exchanged { break }
            peak = original
        }
    }
}
