import HTML
import Testing

@Suite("application/x-www-form-urlencoded serializer")
struct SerializerTests {
    @Test(
        "percent-encode set",
        arguments: [
            ("a b", "a+b"), ("a+b", "a%2Bb"), ("a&b", "a%26b"), ("a=b", "a%3Db"), ("café", "caf%C3%A9"),
            ("*-._", "*-._"), ("~!'()", "%7E%21%27%28%29"), ("AZaz09", "AZaz09"), ("/?#%", "%2F%3F%23%25"),
            ("日本", "%E6%97%A5%E6%9C%AC"), ("😀", "%F0%9F%98%80"), ("", ""),
        ])
    func percentEncoding(input: String, expected: String) {
        #expect(FormEncoding.percentEncode(input) == expected)
    }

    @Test("pairs joined with & and newlines normalised to CRLF")
    func pairs() {
        let entries = [FormEntry(name: "a b", value: "1+1=2"), FormEntry(name: "n", value: "x\ny\r\nz\rw")]
        #expect(FormEncoding.urlencoded(entries) == "a+b=1%2B1%3D2&n=x%0D%0Ay%0D%0Az%0D%0Aw")
        #expect(FormEncoding.urlencoded([]) == "")
    }
}

@Suite("RFC 3986 reference resolution")
struct URLResolutionTests {
    static let base = "http://a/b/c/d;p?q"

    @Test(
        "normal examples (RFC 3986 5.4.1)",
        arguments: [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ])
    func normal(reference: String, expected: String) {
        #expect(URLResolver.resolve(reference, against: Self.base) == expected)
    }

    @Test(
        "abnormal examples (RFC 3986 5.4.2)",
        arguments: [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
        ])
    func abnormal(reference: String, expected: String) {
        #expect(URLResolver.resolve(reference, against: Self.base) == expected)
    }

    @Test("attribute clean-up: whitespace trimmed, tabs/newlines dropped, spaces and non-ASCII encoded")
    func cleanUp() {
        #expect(URLResolver.resolve("  /a b\n/c\t ", against: "https://h.test/x") == "https://h.test/a%20b/c")
        #expect(URLResolver.resolve("/é", against: "https://h.test/") == "https://h.test/%C3%A9")
        #expect(URLResolver.resolve("HTTPS://Other.test", against: "https://h.test/") == "https://Other.test")
        #expect(URLResolver.resolve("rel", against: "not-absolute") == nil)
        #expect(URLResolver.replacingQuery(of: "https://h/p?a=1#f", with: "b=2") == "https://h/p?b=2#f")
    }
}
