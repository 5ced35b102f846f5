/// JSON answers through `spconnect gateway`: every string value that begins with the upstream origin (OData's
/// `odata.nextLink`, `__next`, `__metadata.uri`, `odata.id`, any absolute URL of the site) gets the gateway's origin
/// instead, so a client that pages or follows a link comes back to the gateway, with the gateway's secret, rather
/// than going to the site without a session and with that secret. The origin may be written with escaped slashes
/// (`https:\/\/…`); every other byte stays as it was. A pure function on bytes.
package enum GatewayJSONLinks {
    /// `json` with each string's leading `upstream` origin (any case; followed by `/`, `\/`, `?`, `#` or the string's
    /// end, never another escape) replaced by `gateway`.
    package static func rewritingOrigins(_ json: [UInt8], from upstream: String, to gateway: String) -> [UInt8] {
        let plain = Array(upstream.lowercased().utf8)
        let escaped = Array(upstream.lowercased().replacingOccurrences(of: "/", with: "\\/").utf8)
        let replacement = (
            plain: Array(gateway.utf8), escaped: Array(gateway.replacingOccurrences(of: "/", with: "\\/").utf8)
        )
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var index = 0
        var inString = false
        while index < json.count {
            let byte = json[index]
            out.append(byte)
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\"), index < json.count {
                    out.append(json[index])
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            guard byte == UInt8(ascii: "\"") else { continue }
            inString = true
            // A string starts here: does it start with the site's origin?
            for (origin, written) in [(plain, replacement.plain), (escaped, replacement.escaped)]
            where bytes(json, holdLowercased: origin, at: index) && endsOrigin(json, at: index + origin.count) {
                out.append(contentsOf: written)
                index += origin.count
                break
            }
        }
        return out
    }

    /// Whether an origin ends at `index` (a path, query or fragment follows, or the string ends): not a longer host
    /// or another port that begins the same way. Of the escapes only `\/` starts a path: after `\r`, `\t` or
    /// `\n` a URL parser drops the control and reads the letters after it as more of the host, and `\"` or `\u…`
    /// are no boundary either, so such a string is left as it is.
    private static func endsOrigin(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "\\") {
            return index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
        }
        return [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\"")].contains(bytes[index])
    }
}
