import Foundation
import Presentation
import Testing

@Suite struct JSONTextTests {
    @Test func escapesQuotesBackslashesControlsAndLineSeparators() {
        #expect(JSONText.quoted("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(JSONText.quoted("\n\r\t\u{8}\u{c}") == #""\n\r\t\b\f""#)
        #expect(JSONText.quoted("\u{0}\u{1f}\u{7f}") == #""\u0000\u001f\u007f""#)
        #expect(JSONText.quoted("x\u{2028}y\u{2029}z") == #""x\u2028y\u2029z""#)
        #expect(JSONText.quoted("文档 📁 é") == "\"文档 📁 é\"")
        #expect(JSONText.quoted("</script>") == "\"</script>\"")
    }

    @Test func nestedValuesKeepMemberOrderInCompactAndPrettyForms() {
        let value = JSONValue.object([
            .init("z", .int(1)), .init("a", .array([.bool(true), .null, .double(0.5)])), .init("m", .object([])),
            .init("bad", .double(.nan)), .init("inf", .double(.infinity)),
        ])
        #expect(JSONText.compact(value) == #"{"z":1,"a":[true,null,0.5],"m":{},"bad":null,"inf":null}"#)
        let pretty = """
            {
              "z": 1,
              "a": [
                true,
                null,
                0.5
              ],
              "m": {},
              "bad": null,
              "inf": null
            }
            """
        #expect(JSONText.pretty(value) == pretty)
    }

    @Test func cellsMapToJSONValues() {
        let record: Record = [
            "s": "x", "i": -3, "d": 1e21, "b": true, "n": nil,
            "t": .date(Date(timeIntervalSince1970: 951_786_123.25)),
            "j": .json(.object([.init("Id", .int(7))])),
        ]
        #expect(
            JSONText.compact(record)
                == #"{"s":"x","i":-3,"d":1e+21,"b":true,"n":null,"t":"2000-02-29T01:02:03.250Z","j":{"Id":7}}"#)
        let parsed = try? JSONSerialization.jsonObject(with: Data(JSONText.compact(record).utf8)) as? [String: Any]
        #expect(parsed?["d"] as? Double == 1e21)
    }

    @Test func datesAreUTCISO8601IncludingBeforeTheEpoch() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (951_786_123, "2000-02-29T01:02:03Z"),
            (1_795_953_600, "2026-11-29T12:00:00Z"), (1_795_953_600.001, "2026-11-29T12:00:00.001Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ]
        for (seconds, text) in cases {
            #expect(JSONText.compact(["t": .date(Date(timeIntervalSince1970: seconds))]) == "{\"t\":\"\(text)\"}")
        }
    }
}
