import Presentation
import Testing

@Suite struct TerminalTextTests {
    @Test func displayWidthCountsWideCharactersEmojiAndCombiningMarks() {
        #expect(TerminalText.displayWidth("abc") == 3)
        #expect(TerminalText.displayWidth("文档") == 4)
        #expect(TerminalText.displayWidth("한국어") == 6)
        #expect(TerminalText.displayWidth("ｆｕｌｌ") == 8)
        #expect(TerminalText.displayWidth("e\u{301}") == 1)
        #expect(TerminalText.displayWidth("📁") == 2)
        #expect(TerminalText.displayWidth("👨‍👩‍👧") == 2)
        #expect(TerminalText.displayWidth("❤️") == 2)
        #expect(TerminalText.displayWidth("🇫🇷") == 2)
        #expect(TerminalText.displayWidth("a\u{200B}b") == 2)
    }

    @Test func truncationEndsInEllipsisAndNeverSplitsAGraphemeCluster() {
        #expect(TerminalText.truncated("Documents", toWidth: 9) == "Documents")
        #expect(TerminalText.truncated("Documents", toWidth: 5) == "Docu…")
        #expect(TerminalText.truncated("文档文档", toWidth: 5) == "文档…")
        #expect(TerminalText.truncated("文档文档", toWidth: 4) == "文…")
        #expect(TerminalText.truncated("ab👨‍👩‍👧cd", toWidth: 4) == "ab…")
        #expect(TerminalText.truncated("ab👨‍👩‍👧cd", toWidth: 5) == "ab👨‍👩‍👧…")
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(TerminalText.truncated("abc", toWidth: 1) == "…")
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
        #expect(TerminalText.padded("文", toWidth: 4, alignment: .left) == "文  ")
        #expect(TerminalText.padded("7", toWidth: 3, alignment: .right) == "  7")
    }

    @Test func sanitisingRemovesEveryWayToDriveTheTerminal() {
        #expect(TerminalText.sanitized("\u{1b}[31mred\u{1b}[0m") == "\u{FFFD}[31mred\u{FFFD}[0m")
        #expect(TerminalText.sanitized("a\nb\r\nc\td") == "a b  c d")
        #expect(TerminalText.sanitized("bell\u{7}del\u{7f}csi\u{9b}2J") == "bell\u{FFFD}del\u{FFFD}csi\u{FFFD}2J")
        #expect(TerminalText.sanitized("\u{202E}txt.exe\u{2066}") == "\u{FFFD}txt.exe\u{FFFD}")
        #expect(TerminalText.sanitized("\u{1b}]8;;http://x\u{7}link") == "\u{FFFD}]8;;http://x\u{FFFD}link")
        #expect(TerminalText.sanitized("line\u{2028}para\u{2029}end") == "line para end")
        #expect(TerminalText.sanitized("plain 文档 📁") == "plain 文档 📁")
    }

    @Test func formatIsTableOnATerminalAndJSONOtherwise() {
        #expect(OutputFormat.automatic(standardOutputIsTerminal: true) == .table)
        #expect(OutputFormat.automatic(standardOutputIsTerminal: false) == .json)
        #expect(OutputFormat.resolve(requested: .csv, standardOutputIsTerminal: true) == .csv)
        #expect(OutputFormat.resolve(requested: nil, standardOutputIsTerminal: false) == .json)
        #expect(OutputFormat(rawValue: "ndjson") == .ndjson)
    }

    @Test func colourFollowsTheFlagNoColorTermAndTTY() {
        #expect(Terminal.isColorEnabled(noColorFlag: false, environment: [:], outputIsTerminal: true))
        #expect(!Terminal.isColorEnabled(noColorFlag: true, environment: [:], outputIsTerminal: true))
        #expect(!Terminal.isColorEnabled(noColorFlag: false, environment: [:], outputIsTerminal: false))
        #expect(!Terminal.isColorEnabled(noColorFlag: false, environment: ["NO_COLOR": "1"], outputIsTerminal: true))
        #expect(Terminal.isColorEnabled(noColorFlag: false, environment: ["NO_COLOR": ""], outputIsTerminal: true))
        #expect(!Terminal.isColorEnabled(noColorFlag: false, environment: ["TERM": "dumb"], outputIsTerminal: true))
        #expect(Terminal.width(environment: ["COLUMNS": "100"]) == 100)
        #expect(Terminal.width(environment: ["COLUMNS": "wide"]) == nil)
        #expect(Terminal.width(environment: ["COLUMNS": "0"]) == nil)
        #expect(Terminal.width(environment: [:]) == nil)
    }
}
