import Foundation
import Presentation
import Testing

@Suite struct RendererGoldenTests {
    @Test func tableAlignsNumbersSanitisesControlsAndMeasuresWideCharacters() {
        let expected = """
            Title                        Items  Size  Hidden  Modified
            -------------------------  -------  ----  ------  --------------------
            <script>alert(1)</script>        3   1.5  false   2026-11-29T12:00:00Z
            Say "hi", then leave           -12        true
            =cmd|' /C calc'!A0         1000000  0.25  false
            \u{FFFD}[31mred\u{FFFD}[0m                     0   2.0  false
            Fotos 📁 文档 e\u{301}                  7

            """
        let table = RecordRenderer.render(Fixtures.recordSet, as: .table)
        #expect(table == expected)
        #expect(!table.contains("\u{1b}"))
    }

    @Test func tableShrinksToTerminalWidthAndBoldsOnlyHeadersWhenColourIsOn() {
        let options = TableOptions(maxColumnWidth: 12, terminalWidth: 40, colorEnabled: true)
        let table = RecordRenderer.render(Fixtures.recordSet, as: .table, table: options)
        let bold = { (text: String) in "\u{1b}[1m\(text)\u{1b}[0m" }
        let expected = """
            \(bold("Title"))      \(bold("Items"))  \(bold("Size"))  \(bold("Hidden"))  \(bold("Modified"))
            -------  -------  ----  ------  --------
            <scrip…        3   1.5  false   2026-11…
            Say "h…      -12        true
            =cmd|'…  1000000  0.25  false
            \u{FFFD}[31mr…        0   2.0  false
            Fotos …        7

            """
        #expect(table == expected)
        let lines = table.split(separator: "\n").dropFirst()
        #expect(lines.allSatisfy { TerminalText.displayWidth(String($0)) <= 40 })
        #expect(lines.allSatisfy { !$0.contains("\u{1b}") })
    }

    @Test func tableHonoursExplicitColumnsTitlesAndAlignment() {
        let set = RecordSet(
            columns: [
                Column("Items", title: "Count", alignment: .left), Column("Missing"), Column("Title", maxWidth: 5),
            ],
            records: Fixtures.records)
        let expected = """
            Count    Missing  Title
            -------  -------  -----
            3                 <scr…
            -12               Say …
            1000000           =cmd…
            0                 \u{FFFD}[31…
            7                 Foto…

            """
        #expect(TableRenderer.render(set) == expected)
        #expect(TableRenderer.render(RecordSet(records: [])) == "")
        #expect(TableRenderer.render(RecordSet(columns: [Column("A")], records: [])) == "A\n-\n")
    }

    @Test func jsonIsAPrettyArrayInFieldOrderWithEscapes() {
        let expected = #"""
            [
              {
                "Title": "<script>alert(1)</script>",
                "Items": 3,
                "Size": 1.5,
                "Hidden": false,
                "Modified": "2026-11-29T12:00:00Z"
              },
              {
                "Title": "Say \"hi\", then\nleave",
                "Items": -12,
                "Size": null,
                "Hidden": true,
                "Modified": null
              },
              {
                "Title": "=cmd|' /C calc'!A0",
                "Items": 1000000,
                "Size": 0.25,
                "Hidden": false,
                "Modified": null
              },
              {
                "Title": "\u001b[31mred\u001b[0m",
                "Items": 0,
                "Size": 2.0,
                "Hidden": false,
                "Modified": null
              },
              {
                "Title": "Fotos 📁 文档 é",
                "Items": 7,
                "Size": null,
                "Hidden": null,
                "Modified": null
              }
            ]

            """#
        let json = RecordRenderer.render(Fixtures.recordSet, as: .json)
        #expect(json == expected.replacingOccurrences(of: "é", with: "e\u{301}"))
        // Foundation's parser agrees it is valid JSON and reads the hostile values back unchanged.
        let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 5)
        #expect(parsed?[1]["Title"] as? String == "Say \"hi\", then\nleave")
        #expect(parsed?[3]["Title"] as? String == "\u{1b}[31mred\u{1b}[0m")
        #expect(RecordRenderer.render(RecordSet(records: []), as: .json) == "[]\n")
    }

    @Test func ndjsonIsOneCompactObjectPerLine() {
        let expected = #"""
            {"Title":"<script>alert(1)</script>","Items":3,"Size":1.5,"Hidden":false,"Modified":"2026-11-29T12:00:00Z"}
            {"Title":"Say \"hi\", then\nleave","Items":-12,"Size":null,"Hidden":true,"Modified":null}
            {"Title":"=cmd|' /C calc'!A0","Items":1000000,"Size":0.25,"Hidden":false,"Modified":null}
            {"Title":"\u001b[31mred\u001b[0m","Items":0,"Size":2.0,"Hidden":false,"Modified":null}
            {"Title":"Fotos 📁 文档 e\#u{301}","Items":7,"Size":null,"Hidden":null,"Modified":null}

            """#
        #expect(RecordRenderer.render(Fixtures.recordSet, as: .ndjson) == expected)
    }

    @Test func csvQuotesDoublesAndGuardsFormulas() {
        let lines = [
            "Title,Items,Size,Hidden,Modified",
            "<script>alert(1)</script>,3,1.5,false,2026-11-29T12:00:00Z",
            "\"Say \"\"hi\"\", then\nleave\",-12,,true,",
            "'=cmd|' /C calc'!A0,1000000,0.25,false,",
            "\u{1b}[31mred\u{1b}[0m,0,2.0,false,",
            "Fotos 📁 文档 e\u{301},7,,,",
        ]
        #expect(RecordRenderer.render(Fixtures.recordSet, as: .csv) == lines.map { $0 + "\r\n" }.joined())
        let lf = RecordRenderer.render(Fixtures.recordSet, as: .csv, csv: CSVOptions(lineEnding: .lf))
        #expect(lf == lines.map { $0 + "\n" }.joined())
    }

    @Test func csvFormulaGuardCoversEveryTriggerButNotNumbersAndCanBeTurnedOff() {
        let records: [Record] = [
            ["A": "=1+1", "B": "+1", "C": "-1", "D": "@SUM(A1)", "E": "\tx", "F": -5],
            ["A": "a=b", "B": "1+", "C": .json(.string("=x")), "D": "'", "E": "", "F": 2.5],
        ]
        let set = RecordSet(columns: ["A", "B", "C", "D", "E", "F"].map { Column($0) }, records: records)
        let guarded = RecordRenderer.render(set, as: .csv, csv: CSVOptions(lineEnding: .lf))
        #expect(guarded == "A,B,C,D,E,F\n'=1+1,'+1,'-1,'@SUM(A1),'\tx,-5\na=b,1+,\"\"\"=x\"\"\",',,2.5\n")
        let raw = RecordRenderer.render(
            set, as: .csv, csv: CSVOptions(lineEnding: .lf, includesHeader: false, guardsAgainstFormulas: false))
        #expect(raw == "=1+1,+1,-1,@SUM(A1),\tx,-5\na=b,1+,\"\"\"=x\"\"\",',,2.5\n")
        let header = RecordRenderer.render(
            RecordSet(columns: [Column("x", title: "=HYPERLINK(\"a,b\")")], records: []), as: .csv)
        #expect(header == "\"'=HYPERLINK(\"\"a,b\"\")\"\r\n")
    }

    @Test func columnsProjectJSONAndCSVInColumnOrderWithNullsForMissingFields() {
        let set = RecordSet(columns: [Column("Items", title: "Count"), Column("Nope")], records: [Fixtures.records[0]])
        #expect(RecordRenderer.render(set, as: .ndjson) == "{\"Items\":3,\"Nope\":null}\n")
        #expect(RecordRenderer.render(set, as: .csv) == "Count,Nope\r\n3,\r\n")
        #expect(set.projected() == [["Items": 3, "Nope": nil]])
    }

    @Test func recordSetInfersColumnsInFirstSeenOrder() {
        let set = RecordSet(records: [["b": 1, "a": 2], ["c": 3, "a": 4]])
        #expect(set.columns.map(\.field) == ["b", "a", "c"])
        #expect(set.records[1]["a"] == 4)
        #expect(set.records[1]["b"] == nil)
    }
}
