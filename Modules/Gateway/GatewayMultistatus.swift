import Foundation

/// WebDAV's 207 answers through `spconnect gateway`: every `href` element (any namespace prefix) whose text is an
/// absolute URL on the upstream origin gets the gateway's origin instead, so that a client that follows them comes
/// back to the gateway; relative hrefs and every other byte stay as they were. Pure functions on bytes.
package enum GatewayMultistatus {
    /// Bodies larger than this are handed on as they are (their hrefs' paths are still right).
    package static let largestRewritten = 64 << 20

    /// `xml` with each `href` element's leading `upstream` origin (any case, followed by `/`, `?`, `#`, `<` or the
    /// end) replaced by `gateway`.
    package static func rewritingHrefs(_ xml: [UInt8], from upstream: String, to gateway: String) -> [UInt8] {
        let origin = Array(upstream.lowercased().utf8)
        let replacement = Array(gateway.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(xml.count)
        var index = 0
        while index < xml.count {
            out.append(xml[index])
            guard xml[index] == UInt8(ascii: "<"), let end = startTagEnd(xml, from: index + 1),
                isHrefTag(xml[(index + 1)..<end])
            else {
                index += 1
                continue
            }
            out.append(contentsOf: xml[(index + 1)...end])
            index = end + 1
            var text = index
            while text < xml.count, [0x20, 0x09, 0x0A, 0x0D].contains(xml[text]) { text += 1 }
            if bytes(xml, holdLowercased: origin, at: text) {
                let after = text + origin.count
                if after == xml.count
                    || [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "<")]
                        .contains(xml[after])
                {
                    out.append(contentsOf: xml[index..<text])
                    out.append(contentsOf: replacement)
                    index = after
                }
            }
        }
        return out
    }

    /// The index of the `>` that ends the start tag whose name begins at `start`; nil for an end tag, a
    /// self-closing tag, a comment or a declaration.
    private static func startTagEnd(_ xml: [UInt8], from start: Int) -> Int? {
        guard start < xml.count, ![UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(xml[start])
        else { return nil }
        var index = start
        while index < xml.count, xml[index] != UInt8(ascii: ">") { index += 1 }
        guard index < xml.count, xml[index - 1] != UInt8(ascii: "/") else { return nil }
        return index
    }

    /// Whether the start tag's text (`D:href`, `href xmlns="DAV:"`) names an `href` element.
    private static func isHrefTag(_ tag: ArraySlice<UInt8>) -> Bool {
        let name = tag.prefix { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? name[...]
        return String(decoding: local, as: UTF8.self).lowercased() == "href"
    }

}

/// Whether `bytes` hold `lowercased` (ASCII, compared in any case) at `index`.
func bytes(_ bytes: [UInt8], holdLowercased lowercased: [UInt8], at index: Int) -> Bool {
    guard index + lowercased.count <= bytes.count else { return false }
    for (offset, expected) in lowercased.enumerated() {
        let given = bytes[index + offset]
        let folded = given >= 0x41 && given <= 0x5A ? given + 0x20 : given
        if folded != expected { return false }
    }
    return true
}
