import HTML
import Testing

/// Inputs the libFuzzer targets in Tools/fuzz found (docs/fuzzing.md), kept as tests of what was fixed.
@Suite("Fuzz regressions: HTML")
struct HTMLFuzzRegressionTests {
    /// fuzz-url: a relative reference took the base's scheme as written (`httCs:`), while an absolute reference's
    /// scheme is lower-cased, so resolving the result again changed it. Schemes are case-insensitive (RFC 3986
    /// 3.1): both come out lower-cased.
    @Test("a relative reference gets the base's scheme lower-cased, and resolving the result again keeps it")
    func baseSchemeIsLowerCased() {
        let base = "httCs:wa=wsignin1.0#frag"
        let resolved = URLResolver.resolve("../adfs/ls/?wa=ws888888ignin1.0#frag", against: base)
        #expect(resolved == "httcs:adfs/ls/?wa=ws888888ignin1.0#frag")
        #expect(resolved.flatMap { URLResolver.resolve($0, against: base) } == resolved)
        #expect(
            URLResolver.resolve("/next", against: "HTTPS://Login.Example.com/a") == "https://Login.Example.com/next")
    }

    /// The same through a page: a form action relative to an upper-case base URL posts to a lower-case scheme.
    @Test("a form's action resolves against an upper-case base with a lower-case scheme")
    func formActionScheme() throws {
        let page = try HTMLPage(
            html: #"<form method=post action="login"><input name=u value=a></form>"#,
            url: "HTTPS://sts.example.com/adfs/ls/")
        let submission = try page.forms[0].submission()
        #expect(submission.url == "https://sts.example.com/adfs/ls/login")
        #expect(submission.bodyText == "u=a")
    }
}
