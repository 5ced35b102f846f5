import HTML
import JSON
import Testing

/// The WebAuthn options a page carries, wherever its script keeps them; and a hostile page of nested options read in
/// one pass.
@Suite struct PasskeyOptionsReadingTests {
    static let challenge = "dGhpcyBpcyBhIGNoYWxsZW5nZSBvZiAzMiBieXRlcyE"

    func options(_ html: String) throws -> [JSONValue] {
        try HTMLPage(html: html, url: "https://rp.example/login").passkeyOptions
    }

    @Test func optionsAreFoundInEachPlaceAPageKeepsThem() throws {
        // An inline script's object literal (unquoted keys, single quotes).
        let literal = try options(
            "<script>const input = { challenge : '\(Self.challenge)', rpId : 'rp.example', isUserIdentified : false };"
                + "</script>")
        #expect(literal.count == 1 && literal[0]["rpId"]?.stringValue == "rp.example")
        // JSON inside a string the script parses.
        let parsed = try options(
            #"<script>handleSignin('{"challenge": "\#(Self.challenge)", "allowCredentials": []}')</script>"#)
        #expect(parsed.first?["challenge"]?.stringValue == Self.challenge)
        // A JSON block, wrapped in publicKey.
        let block = try options(
            #"<script type="application/json" id="js_data">{"request_options": {"publicKey": {"challenge": "\#(Self.challenge)"}}}</script>"#
        )
        #expect(block.first?["challenge"]?.stringValue == Self.challenge)
        // A data attribute.
        let attribute = try options(
            #"<div data-options='{"challenge": "\#(Self.challenge)", "userVerification": "required"}'></div>"#)
        #expect(attribute.first?["userVerification"]?.stringValue == "required")
        // A page that names no challenge has none.
        #expect(try options("<form><input name=q></form><script>var a = {b: 1};</script>").isEmpty)
    }

    @Test func nestedOptionsAreReadOnce() throws {
        // Each level carries a challenge: the outermost is read, the ones inside it are not read again.
        var object = "{\"challenge\": \"\(Self.challenge)\"}"
        for _ in 0..<400 { object = "{\"challenge\": \"\(Self.challenge)\", \"n\": \(object)}" }
        let found = try options("<script>var o = \(object);</script>")
        #expect(found.count == 1)
        // Many objects side by side: at most sixteen are kept.
        let many = (0..<100).map { _ in "{challenge: '\(Self.challenge)'}" }.joined(separator: ",")
        #expect(try options("<script>var list = [\(many)];</script>").count == 16)
    }
}
