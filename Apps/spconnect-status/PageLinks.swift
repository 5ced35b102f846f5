extension StatusPages {
    // MARK: Links

    /// How the pages link to each other: app-relative paths, carrying the access token when the app needs one.
    struct Links: Sendable, Equatable {
        /// The access token added to every link (`?token=…`), or nil on loopback.
        var token: String?

        /// Creates links; `token` is added to every URL when given.
        init(token: String? = nil) {
            self.token = token
        }

        /// `path` (already percent-encoded) with `query` pairs (encoded here) and the token.
        func href(_ path: String, _ query: [(String, String)] = []) -> String {
            var pairs = query
            if let token { pairs.append(("token", token)) }
            guard !pairs.isEmpty else { return path }
            return path + "?" + pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        }

        /// A page of a list: `/lists/<title>`, starting after item `after` (`?after=`), numbered `page` (`&page=`).
        func list(_ title: String, after: Int? = nil, page: Int? = nil) -> String {
            var query: [(String, String)] = []
            if let after { query.append(("after", String(after))) }
            if let page, page > 1 { query.append(("page", String(page))) }
            return href("/lists/" + encode(title), query)
        }

        /// A file downloaded through the app with the session: `/download?url=<server-relative URL>`.
        func download(_ serverRelativeURL: String) -> String {
            href("/download", [("url", serverRelativeURL)])
        }

        /// The gallery of a picture library: `/photos/<title>`.
        func photos(_ title: String) -> String {
            href("/photos/" + encode(title))
        }

        /// A thumbnail fetched through the app: `/thumb?url=<server-relative URL>`.
        func thumbnail(_ serverRelativeURL: String) -> String {
            href("/thumb", [("url", serverRelativeURL)])
        }

        /// Percent-encodes everything but RFC 3986 unreserved characters (so `/`, `?`, `&`, `#` are encoded).
        func encode(_ text: String) -> String {
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

}
