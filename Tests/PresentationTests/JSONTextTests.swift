import Foundation
import JSON
import Presentation
import Testing

@Suite struct JSONTextTests {
    @Test func quotesWithTheSharedStrictEscaping() {
        // The escaping rules themselves are tested in JSONTests.
        #expect(JSONText.quoted("a\"b\n\u{7f}x\u{2028}文档") == #""a\"b\n\u007fx\u2028文档""#)
    }

    @Test func nestedValuesKeepMemberOrderInCompactAndPrettyForms() {
        let value = JSONValue.object([
            ("z", .integer(1)), ("a", .array([.bool(true), .null, .double(0.5)])), ("m", .object([])),
            ("bad", .double(.nan)), ("inf", .double(.infinity)), ("two", .double(2)),
        ])
        #expect(JSONText.compact(value) == #"{"z":1,"a":[true,null,0.5],"m":{},"bad":null,"inf":null,"two":2.0}"#)
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
              "inf": null,
              "two": 2.0
            }
            """
        #expect(JSONText.pretty(value) == pretty)
    }

    @Test func cellsMapToJSONValues() {
        let record: Record = [
            "s": "x", "i": -3, "d": 1e21, "b": true, "n": nil,
            "t": .date(Date(timeIntervalSince1970: 951_786_123.25)),
            "j": .json(.object([("Id", .integer(7))])),
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

    /// Records that exercise every cell kind and every escape, for the byte-for-byte writer checks.
    static let trickyRecords: [Record] = [
        [:],
        [
            "Id": 1, "Title": "plain", "Esc": "q\"b\\s\n\r\t\u{8}\u{C}\u{1}\u{7F}",
            "Sep": "a\u{2028}b\u{2029}c\u{2027}é😀",
            "D": 2.0, "Big": .double(1e21), "Neg": -42, "Inf": .double(.infinity), "B": false, "N": nil,
            "T": .date(Date(timeIntervalSince1970: -1.5)),
            "J": .json(
                .object([
                    ("a", .array([.integer(Int64.min), .double(0.1), .string("\u{2028}"), .null, .bool(true)])),
                    ("e", .object([])), ("f", .array([])),
                ])),
        ],
        ["dup": 1, "dup": 2, "x\"y": "z"],
    ]

    @Test func ndjsonLinesAreTheCompactTextOfTheRecord() {
        let columnSets: [[Column]?] = [nil, [Column("Title"), Column("Missing"), Column("Id")], [Column("dup")], []]
        for columns in columnSets {
            let sink = MemorySink()
            let writer = NDJSONWriter(sink, columns: columns)
            var expected = ""
            for record in Self.trickyRecords {
                writer.write(record)
                let shown =
                    columns.map { columns in
                        Record(columns.map { Presentation.Field($0.field, record[$0.field] ?? .null) })
                    } ?? record
                expected += JSONText.compact(shown) + "\n"
            }
            #expect(sink.text == expected)
            #expect(sink.writeCount == Self.trickyRecords.count)
        }
    }

    @Test func appendingGivesTheSerializedBytes() {
        for record in Self.trickyRecords {
            for field in record.fields {
                let value = JSONText.value(of: field.value)
                for options: JSONValue.WritingOptions in [[], [.doublesKeepFraction], [.prettyPrinted, .sortedKeys]] {
                    var out: [UInt8] = [0x41]
                    value.append(to: &out, options: options)
                    #expect(out == [0x41] + Array(value.serialized(options: options).utf8))
                }
                var quoted: [UInt8] = []
                JSONValue.appendQuoted(field.name, to: &quoted)
                #expect(quoted == Array(JSONValue.quoted(field.name).utf8))
            }
        }
        #expect(JSONValue.quoted("a\u{2028}b\u{7F}\u{1F}\"") == #""a\u2028b\u007f\u001f\"""#)
        #expect(JSONValue.string("é\u{2027}").serialized() == "\"é\u{2027}\"")
    }
}
