import Presentation
import Testing

/// Server text shown in messages: controls visible as escapes, nothing else changed.
@Suite struct EscapingControlsTests {
    @Test func controlsBecomeVisibleEscapes() {
        #expect(
            TerminalText.escapingControls("a\u{1b}[2Jb\rc\u{7f}d\u{9b}e\u{202e}f", keepLineBreaks: false)
                == "a\\x1b[2Jb\\rc\\x7fd\\u{009b}e\\u{202e}f")
        #expect(TerminalText.escapingControls("one\ntwo\tthree", keepLineBreaks: false) == "one\\ntwo\\tthree")
        #expect(TerminalText.escapingControls("one\ntwo\tthree", keepLineBreaks: true) == "one\ntwo\tthree")
    }

    @Test func ordinaryTextIsLeftAlone() {
        for text in ["CONTOSO\\alice", "Prüfung – 日本語 ✅", "C:\\x1b is just text", ""] {
            #expect(TerminalText.escapingControls(text, keepLineBreaks: false) == text)
        }
    }
}
