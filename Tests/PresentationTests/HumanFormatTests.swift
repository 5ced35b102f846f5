import Foundation
import Presentation
import Testing

@Suite struct HumanFormatTests {
    @Test func byteCountsUseOneDecimalAndCarryIntoTheNextUnit() {
        let cases: [(Int64, String)] = [
            (0, "0 B"), (999, "999 B"), (1000, "1.0 KB"), (1049, "1.0 KB"), (1050, "1.1 KB"), (12_345_678, "12.3 MB"),
            (27_000_000, "27.0 MB"), (999_949, "999.9 KB"), (999_950, "1.0 MB"), (1_500_000_000, "1.5 GB"),
            (2_000_000_000_000, "2.0 TB"), (-1500, "-1.5 KB"),
        ]
        for (bytes, text) in cases { #expect(HumanFormat.byteCount(bytes) == text, "\(bytes)") }
        #expect(HumanFormat.byteCount(1023, style: .binary) == "1023 B")
        #expect(HumanFormat.byteCount(1536, style: .binary) == "1.5 KiB")
        #expect(HumanFormat.byteCount(5 * 1024 * 1024 * 1024, style: .binary) == "5.0 GiB")
        #expect(HumanFormat.rate(bytesPerSecond: 3_100_000) == "3.1 MB/s")
        #expect(HumanFormat.rate(bytesPerSecond: .infinity) == "0 B/s")
    }

    @Test func durationsShowTheirTwoLargestUnits() {
        let cases: [(Double, String)] = [
            (0, "0s"), (0.9, "0s"), (5, "5s"), (59.99, "59s"), (60, "1m"), (185, "3m 5s"), (3600, "1h"),
            (35_999, "9h 59m"), (86_400 + 3 * 3600 + 59, "1d 3h"), (-185, "3m 5s"), (.nan, "0s"),
        ]
        for (seconds, text) in cases { #expect(HumanFormat.duration(seconds: seconds) == text, "\(seconds)") }
        #expect(HumanFormat.coarseDuration(seconds: 185) == "3m")
        #expect(HumanFormat.coarseDuration(seconds: 45) == "45s")
        #expect(HumanFormat.coarseDuration(seconds: 35_999) == "9h 59m")
    }

    @Test func relativeTimesForCookieExpiry() {
        let now = Date(timeIntervalSince1970: 1_795_953_600)
        #expect(HumanFormat.expiry(now.addingTimeInterval(35_999), now: now) == "in 9h 59m")
        #expect(HumanFormat.expiry(now.addingTimeInterval(-200), now: now) == "expired 3m ago")
        #expect(HumanFormat.expiry(now.addingTimeInterval(-0.5), now: now) == "expired just now")
        #expect(HumanFormat.expiry(now, now: now) == "expired just now")
        #expect(HumanFormat.expiry(now.addingTimeInterval(30), now: now) == "in 30s")
        #expect(HumanFormat.expiry(now.addingTimeInterval(-3 * 86_400), now: now) == "expired 3d ago")
        #expect(HumanFormat.relative(now.addingTimeInterval(-200), now: now) == "3m ago")
        #expect(HumanFormat.relative(now.addingTimeInterval(7200), now: now) == "in 2h")
        #expect(HumanFormat.relative(now.addingTimeInterval(0.2), now: now) == "now")
    }
}
