import FuzzSupport

// Fuzz target: URL resolution. HTML's RFC 3986 resolver (`URLResolver`, used for form actions, `<base>`, refresh and
// script targets) and AuthFlow's Foundation-based `URLResolution` (links in pages and headers), plus the refresh
// value parser, `Content-Type` charsets and the form percent-encoding.
//
// The input is `reference LF base LF rest`. Oracles:
// - splitting a reference into components and recomposing it gives the same text;
// - a resolved URL is absolute, and resolving it again (against nothing, or against the same base when its path has no
//   dot segments) gives it back;
// - a reference with a scheme resolves without any base; a relative one against a relative base does not resolve;
// - `FormEncoding.percentEncode` output is ASCII and decodes back to the text.
@testable import AuthFlowCore
@testable import HTML

func fuzzURL(_ bytes: [UInt8]) {
    var reader = FuzzReader(bytes)
    let reference = reader.text(upTo: 0x0A)
    let base = reader.text(upTo: 0x0A)
    let rest = Fuzz.text(reader.rest())

    for text in [reference, base] {
        let parts = URLResolver.components(of: text)
        Fuzz.check(
            parts.string == text, "components of \(text.debugDescription) recompose to \(parts.string.debugDescription)"
        )
        _ = URLResolver.removeDotSegments(parts.path)
    }

    let resolved = URLResolver.resolve(reference, against: base)
    let baseIsAbsolute = URLResolver.components(of: URLResolver.clean(base)).scheme != nil
    let referenceIsAbsolute = URLResolver.components(of: URLResolver.clean(reference)).scheme != nil
    Fuzz.check(
        (resolved != nil) == (baseIsAbsolute || referenceIsAbsolute),
        "resolve(\(reference.debugDescription), \(base.debugDescription)) = \(resolved ?? "nil")")
    if let resolved {
        Fuzz.check(URLResolver.components(of: resolved).scheme != nil, "\(resolved) is not absolute")
        // RFC 3986 keeps the base's path as it is for a reference with an empty path (`?q`, `#f`, ""), dot segments
        // included; resolving the result again removes them. So: idempotent for bases whose path has none.
        let basePath = URLResolver.components(of: URLResolver.clean(base)).path
        if URLResolver.removeDotSegments(basePath) == basePath {
            Fuzz.check(
                URLResolver.resolve(resolved, against: base) == resolved, "resolving \(resolved) again changes it")
            Fuzz.check(URLResolver.resolve(resolved, against: "") == resolved, "\(resolved) needs a base")
        }
        let replaced = URLResolver.replacingQuery(of: resolved, with: "a=1")
        Fuzz.check(URLResolver.components(of: replaced).query == "a=1", "replacingQuery lost the query: \(replaced)")
    }

    _ = URLResolution.resolve(reference, against: base)
    _ = URLResolution.join(base, reference)

    if let refresh = MetaRefresh(refresh: rest, baseURL: "https://sts.example.com/adfs/ls/") {
        Fuzz.check(refresh.delay >= 0, "refresh delay \(refresh.delay)")
        Fuzz.check(URLResolver.components(of: refresh.url).scheme != nil, "refresh URL \(refresh.url)")
    }
    _ = HTMLPage.charset(fromContentType: rest)

    let encoded = FormEncoding.percentEncode(rest)
    Fuzz.check(encoded.utf8.allSatisfy { $0 < 0x80 }, "percentEncode output is not ASCII")
    Fuzz.check(percentDecode(encoded) == Array(rest.utf8), "percentEncode(\(rest.debugDescription)) does not decode")
}

func percentDecode(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
        switch byte {
        case UInt8(ascii: "+"): bytes.append(0x20)
        case UInt8(ascii: "%"):
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return []
            }
            bytes.append(high << 4 | low)
        default: bytes.append(byte)
        }
    }
    return bytes
}

func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

/// References of the kinds sign-in pages use, each with a base and a refresh value.
let seeds = [
    "../adfs/ls/?wa=wsignin1.0#frag\nhttps://sts.Contoso.com:443/a/b/c;p?q\n0; URL='https://x.example/?a=b'",
    "//login.microsoftonline.com/common/oauth2\nhttps://login.live.com/\n5;url=/next page",
    "?client-request-id=42&amp;x\nhttp://127.0.0.1:8080/_layouts/15/Authenticate.aspx?Source=%2F\ntext/html; charset=\"utf-8\"",
    " javascript:void(0) \t\nabout:blank\n1.5.2, url=g;x",
    "g/./h/../../../i\nhttp://a/b/c/d;p?q\n  3  ",
    "HTTPS://EXAMPLE.com/%7Efoo/\u{E9}t\u{E9} x\n\n",
]

@main enum Main {
    static func main() { Fuzz.main(fuzzURL, seeds: seeds) }
}
