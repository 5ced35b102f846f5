import Gateway
import Testing

/// The gateway rewrites a JSON answer's links to the site into links to itself, and nothing else.
@Suite struct GatewayJSONLinksTests {
    let site = "https://contoso.sharepoint.com"
    let gateway = "http://127.0.0.1:8700"

    func rewritten(_ json: String) -> String {
        String(decoding: GatewayJSONLinks.rewritingOrigins(Array(json.utf8), from: site, to: gateway), as: UTF8.self)
    }

    @Test func linksWithPlainOrEscapedSlashesAreRewritten() {
        #expect(
            rewritten(#"{"n":"https://contoso.sharepoint.com/_api/x?a=1"}"#)
                == #"{"n":"http://127.0.0.1:8700/_api/x?a=1"}"#)
        #expect(rewritten(#"["HTTPS:\/\/CONTOSO.sharepoint.com\/a"]"#) == #"["http:\/\/127.0.0.1:8700\/a"]"#)
        #expect(rewritten(#"["https://contoso.sharepoint.com"]"#) == #"["http://127.0.0.1:8700"]"#)
    }

    /// libFuzzer's find (CI, fuzz-gateway): after `\r` a URL parser drops the control and reads on as host, so the
    /// string names another host and must stay as it is; so must a longer host and an escaped quote or `\u`.
    @Test func anOriginFollowedByAnotherEscapeOrALongerHostIsLeftAlone() {
        for json in [
            #"["HTTPS:\/\/CONTOSO.sharepoint.com\repoint"]"#, #"["https://contoso.sharepoint.com\tx"]"#,
            #"["https://contoso.sharepoint.com\"x"]"#, #"["https://contoso.sharepoint.com\u002fx"]"#,
            #"["https://contoso.sharepoint.com.evil/x"]"#, #"["https://contoso.sharepoint.com:444/x"]"#,
        ] {
            #expect(rewritten(json) == json, "\(json)")
        }
    }
}
