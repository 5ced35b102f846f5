import Foundation
import JSON
import Presentation

extension StatusPages {
    /// session's facts, cookies (`secondsLeft`, never values), the last proof and sign-in.
    static func statusJSON(_ facts: SessionFacts, now: Date) -> String {
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
            ("lifetime", string(facts.lifetime)), ("renewal", string(facts.renewal)),
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
                        ("source", string(signIn.source)), ("message", .string(signIn.pageMessage)),
                        ("hints", .array(signIn.hints.map { .string($0.description) })),
                        ("steps", .array(signIn.steps.map(traceObject))),
                    ])
                } ?? .null
            ))
        members.append(("canSignIn", .bool(facts.canSignIn)))
        return JSONText.pretty(.object(members)) + "\n"
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
}
