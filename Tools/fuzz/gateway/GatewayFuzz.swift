// Fuzz target: what the gateway (Modules/Gateway) reads from strangers. The request head a local client sends is
// checked by GatewayAdmission before anything goes upstream; the JSON and WebDAV multistatus answers the site sends
// back are rewritten byte by byte (GatewayJSONLinks, GatewayMultistatus).
//
// The first byte picks the surface; the rest is the input.
// Oracles:
// - admission: a request is let through only when its Host names the gateway, its Origin (if any) is the gateway's,
//   it presents exactly the gateway's secret, and its target is a path without a `..` segment; a Basic or Bearer
//   header carrying the secret is read back as the secret;
// - JSON: rewriting to the same origin changes nothing but the origin's case; an answer that parses still parses after rewriting, with the
//   same shape, and each string is either kept or is its rewritten form (the site's origin at its start replaced by
//   the gateway's); rewriting back gives the input (but for the origin's case) when it never named the gateway;
// - multistatus: rewriting to the same origin changes nothing but the origin's case; rewriting back gives the input when it never named
//   the gateway; the length changes by a whole number of origin swaps.
import Foundation
import FuzzSupport
import HTTPServer
import JSON
import Transport

@testable import Gateway

let upstream = "https://contoso.sharepoint.com"
let gateway = "http://127.0.0.1:8700"
let secret = "4f1c2b9e7d0a6c3f"

func fuzzGateway(_ bytes: [UInt8]) {
    guard let surface = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    switch surface % 3 {
    case 0: fuzzAdmission(input)
    case 1: fuzzJSON(input)
    default: fuzzMultistatus(input)
    }
}

/// Lines: target, then header lines `name: value` (a NUL-free text each).
func fuzzAdmission(_ input: [UInt8]) {
    var reader = FuzzReader(input)
    let target = reader.text(upTo: 0x0A)
    var headers: [(name: String, value: String)] = []
    while !reader.isAtEnd {
        let line = reader.text(upTo: 0x0A)
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.append(
            (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    }
    let request = HTTPServerRequest(
        method: "GET", target: target, headers: headers, body: [], clientAddress: "127.0.0.1",
        serverAddress: "127.0.0.1")
    let admission = GatewayAdmission(gatewayOrigin: gateway, secret: Secret(secret))
    let refusal = admission.refusal(request)
    if refusal == nil {
        let host = request.header("Host")?.lowercased()
        Fuzz.check(host == "127.0.0.1:8700" || host == "localhost:8700", "admitted with Host \(host ?? "none")")
        if let origin = request.header("Origin") {
            Fuzz.check(origin.lowercased() == gateway, "admitted from Origin \(origin)")
        }
        Fuzz.check(
            GatewayAdmission.presentedSecret(request.header("Authorization")) == secret,
            "admitted without the secret: \(request.header("Authorization") ?? "none")")
        Fuzz.check(
            target.hasPrefix("/") && !request.path.split(separator: "/").contains(".."),
            "admitted a target outside the site: \(target)")
    } else {
        Fuzz.check(refusal.map { [400, 401, 403, 421].contains($0.status) } == true, "a refusal with another status")
    }
    let user = String(decoding: input.prefix(12).filter { $0 != UInt8(ascii: ":") && $0 < 0x80 }, as: UTF8.self)
    let basic = "Basic " + Data((user + ":" + secret).utf8).base64EncodedString()
    Fuzz.check(GatewayAdmission.presentedSecret(basic) == secret, "a Basic password not read back: \(basic)")
    Fuzz.check(GatewayAdmission.presentedSecret("bearer  " + secret) == secret, "a bearer token not read back")
}

func fuzzJSON(_ input: [UInt8]) {
    Fuzz.check(
        asciiLowercased(GatewayJSONLinks.rewritingOrigins(input, from: upstream, to: upstream))
            == asciiLowercased(input),
        "rewriting to the same origin changed the answer:\n\(Fuzz.text(input))")
    let rewritten = GatewayJSONLinks.rewritingOrigins(input, from: upstream, to: gateway)
    if !namesGateway(input) {
        Fuzz.check(
            asciiLowercased(GatewayJSONLinks.rewritingOrigins(rewritten, from: gateway, to: upstream))
                == asciiLowercased(input),
            "rewriting back does not give the answer:\n\(Fuzz.text(input))\n\(Fuzz.text(rewritten))")
    }
    guard let before = try? JSONValue.parse(bytes: input) else { return }
    guard let after = try? JSONValue.parse(bytes: rewritten) else {
        Fuzz.check(false, "an answer that parsed no longer parses:\n\(Fuzz.text(input))\n\(Fuzz.text(rewritten))")
        return
    }
    Fuzz.check(sameShape(before, after), "the rewriting changed more than links:\n\(Fuzz.text(input))")
}

func fuzzMultistatus(_ input: [UInt8]) {
    Fuzz.check(
        asciiLowercased(GatewayMultistatus.rewritingHrefs(input, from: upstream, to: upstream))
            == asciiLowercased(input),
        "rewriting to the same origin changed the answer:\n\(Fuzz.text(input))")
    let rewritten = GatewayMultistatus.rewritingHrefs(input, from: upstream, to: gateway)
    let delta = upstream.utf8.count - gateway.utf8.count
    Fuzz.check((input.count - rewritten.count) % delta == 0, "the length changed by more than origin swaps")
    if !namesGateway(input) {
        Fuzz.check(
            asciiLowercased(GatewayMultistatus.rewritingHrefs(rewritten, from: gateway, to: upstream))
                == asciiLowercased(input),
            "rewriting back does not give the answer:\n\(Fuzz.text(input))\n\(Fuzz.text(rewritten))")
    }
}

/// The bytes with ASCII letters in lower case (the rewriting writes an origin in its own case).
func asciiLowercased(_ bytes: [UInt8]) -> [UInt8] {
    bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
}

/// Whether the input already holds the gateway's origin (any case), which rewriting back would change too.
func namesGateway(_ input: [UInt8]) -> Bool {
    let text = String(decoding: input, as: UTF8.self).lowercased()
    return text.contains("127.0.0.1:8700")
}

/// The same JSON apart from strings that start with the site's origin, which may name the gateway's instead.
func sameShape(_ before: JSONValue, _ after: JSONValue) -> Bool {
    switch (before, after) {
    case (.string(let a), .string(let b)): return a == b || b == linked(a)
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(sameShape)
    case (.object(let a), .object(let b)):
        return a.count == b.count
            && zip(a, b).allSatisfy { ($0.0 == $1.0 || $1.0 == linked($0.0)) && sameShape($0.1, $1.1) }
    default: return before == after
    }
}

/// `text` with its leading site origin (any case, at a boundary) replaced by the gateway's.
func linked(_ text: String) -> String? {
    guard text.lowercased().hasPrefix(upstream) else { return nil }
    let rest = text.dropFirst(upstream.count)
    guard rest.isEmpty || ["/", "?", "#"].contains(rest.first!) else { return nil }
    return gateway + rest
}

/// A JSON page with links (plain and with escaped slashes), a multistatus, and a request head with the secret.
let seeds = [
    "\u{1}" + #"{"odata.nextLink":"https://contoso.sharepoint.com/_api/web/lists?$skiptoken=x","#
        + #""v":["HTTPS:\/\/CONTOSO.sharepoint.com\/a","https://contoso.sharepoint.com.evil/x",1,null]}"#,
    "\u{2}" + #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>"#
        + #"https://contoso.sharepoint.com/Shared%20Documents/</D:href></D:response><d:href>/x</d:href>"#
        + #"</D:multistatus>"#,
    "\u{0}/_api/web?$select=Title\nHost: 127.0.0.1:8700\nAuthorization: Basic dG9vbDo0ZjFjMmI5ZTdkMGE2YzNm\n",
    "\u{0}/a/../../etc/passwd\nHost: localhost:8700\nAuthorization: Bearer 4f1c2b9e7d0a6c3f\nOrigin: http://x\n",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzGateway, seeds: seeds) }
}
