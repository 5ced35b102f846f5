import Presentation
import Testing

@Suite struct ProgressTests {
    let bar = ProgressBar(label: "report.pdf", barWidth: 10)
    let total: Int64 = 27_000_000

    @Test func knownTotalAtZeroHalfAndFull() {
        #expect(bar.render(done: 0, total: total, elapsedSeconds: 0) == "report.pdf [..........] 0% 0 B/27.0 MB")
        #expect(
            bar.render(done: 13_500_000, total: total, elapsedSeconds: 4.5)
                == "report.pdf [#####.....] 50% 13.5 MB/27.0 MB 3.0 MB/s ETA 5s")
        #expect(
            bar.render(done: 12_300_000, total: total, elapsedSeconds: 3.967)
                == "report.pdf [####......] 45% 12.3 MB/27.0 MB 3.1 MB/s ETA 5s")
        #expect(
            bar.render(done: total, total: total, elapsedSeconds: 9)
                == "report.pdf [##########] 100% 27.0 MB/27.0 MB 3.0 MB/s")
        // Rounds down: one byte short is not 100%.
        #expect(bar.render(done: total - 1, total: total, elapsedSeconds: 9).contains("[#########.] 99%"))
        #expect(bar.render(done: 0, total: 0, elapsedSeconds: 1) == "report.pdf [##########] 100% 0 B/0 B")
    }

    @Test func unknownTotalShowsASpinnerBytesAndRate() {
        #expect(bar.render(done: 12_300_000, total: nil, elapsedSeconds: 4.1) == "report.pdf | 12.3 MB 3.0 MB/s")
        #expect(bar.render(done: 12_300_000, total: nil, elapsedSeconds: 4.3) == "report.pdf / 12.3 MB 2.9 MB/s")
        #expect(bar.render(done: 0, total: nil, elapsedSeconds: 0.5) == "report.pdf - 0 B")
        let unlabelled = ProgressBar(label: "", barWidth: 4, byteCountStyle: .binary)
        #expect(unlabelled.render(done: 2048, total: nil, elapsedSeconds: 0.75) == "\\ 2.0 KiB 2.7 KiB/s")
    }

    @Test func labelIsSanitised() {
        let hostile = ProgressBar(label: "a\u{1b}[2Jb\n", barWidth: 2)
        #expect(hostile.render(done: 0, total: nil, elapsedSeconds: 0) == "a\u{FFFD}[2Jb  | 0 B")
    }

    @Test func reporterThrottlesRedrawsClearsShorterLinesAndEndsWithNewline() {
        let sink = MemorySink()
        let reporter = ProgressReporter(
            sink: sink, bar: ProgressBar(label: "f", barWidth: 4), isEnabled: true, maxUpdatesPerSecond: 2)
        reporter.update(done: 0, total: 2000, elapsedSeconds: 0)
        reporter.update(done: 100, total: 2000, elapsedSeconds: 0.1)
        reporter.update(done: 400, total: 2000, elapsedSeconds: 0.49)
        reporter.update(done: 1000, total: 2000, elapsedSeconds: 0.5)
        reporter.update(done: 1500, total: 2000, elapsedSeconds: 0.7)
        reporter.finish(done: 2000, total: 2000, elapsedSeconds: 0.8)
        reporter.finish(done: 2000, total: 2000, elapsedSeconds: 0.9)
        reporter.update(done: 2000, total: 2000, elapsedSeconds: 5)
        #expect(reporter.linesWritten == 3)
        let expected =
            "\rf [....] 0% 0 B/2.0 KB"
            + "\rf [##..] 50% 1.0 KB/2.0 KB 2.0 KB/s ETA 1s"
            + "\rf [####] 100% 2.0 KB/2.0 KB 2.5 KB/s      \n"
        #expect(sink.text == expected)
    }

    @Test func reporterWritesNothingWhenStandardErrorIsNotATerminal() {
        let sink = MemorySink()
        let reporter = ProgressReporter(sink: sink, bar: bar, isEnabled: false)
        reporter.update(done: 1, total: 2, elapsedSeconds: 0)
        reporter.finish(done: 2, total: 2, elapsedSeconds: 1)
        #expect(sink.text.isEmpty)
        #expect(reporter.linesWritten == 0)
    }
}
