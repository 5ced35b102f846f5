import Testing
import Transport

/// Secrets removed by value, in each spelling a page or message may carry.
@Suite struct SecretScrubberTests {
    @Test func everySpellingOfASecretIsRemoved() {
        let scrubber = SecretScrubber(["p@ss w&rd<1>"])
        let spellings = [
            "p@ss w&rd<1>", "p%40ss%20w%26rd%3C1%3E", "p%40ss+w%26rd%3C1%3E", "p%40ss%20w%26rd%3c1%3e",
            "p@ss w&amp;rd&lt;1&gt;", "p@ss w&#38;rd&#60;1&#62;", "p@ss w\\u0026rd\\u003c1\\u003e",
            "p@ss w\\u0026rd\\u003C1\\u003E",
        ]
        for spelling in spellings {
            #expect(scrubber.scrub("before \(spelling) after") == "before <redacted> after", "\(spelling)")
        }
    }

    @Test func shortValuesAndUnrelatedTextStay() {
        let scrubber = SecretScrubber(["ab", "secret-cookie"], minimumLength: 3)
        #expect(scrubber.scrub("about a cab") == "about a cab")
        #expect(scrubber.scrub("x=secret-cookie;") == "x=<redacted>;")
        var cookies = SecretScrubber()
        cookies.add(["true", "long-session-value"], minimumLength: SecretScrubber.cookieMinimumLength)
        #expect(cookies.scrub("true: long-session-value") == "true: <redacted>")
        #expect(SecretScrubber().scrub("nothing") == "nothing")
    }

    @Test func aLongerSecretGoesWholeWhenItContainsAShorterOne() {
        let scrubber = SecretScrubber(["abc", "abcdef"])
        #expect(scrubber.scrub("abcdef abc") == "<redacted> <redacted>")
    }
}
