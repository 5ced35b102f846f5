import Foundation
import JSON
import Testing

@Suite struct JSONParsingTests {
    @Test func keepsMemberOrderAndDottedKeys() throws {
        let value = try JSONValue.parse(#"{"z":1,"odata.nextLink":"n","a":{"b.c":true}}"#)
        #expect(value.objectValue?.map(\.0) == ["z", "odata.nextLink", "a"])
        #expect(value["odata.nextLink"] == "n")
        #expect(value["a"]?["b.c"] == true)
        #expect(value["odata"] == nil)
        #expect(value.member("z") == .integer(1))
    }

    @Test func repeatedNamesAreKeptAndLookupFindsTheFirst() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.map(\.0) == ["a", "b", "a"])
        #expect(value["a"] == .integer(1))
        #expect(value.description == #"{"a":1,"b":2,"a":3}"#)
    }

    @Test func stringsNumbersAndEscapes() throws {
        let value = try JSONValue.parse(
            #"["\u00e9\ud83d\ude00\n\"\\\/", -0, 12, -9223372036854775808, 1.5e3, 0.1, 18446744073709551616, "\u0041"]"#
        )
        #expect(value[0] == "é😀\n\"\\/")
        #expect(value[1] == .integer(0))
        #expect(value[2] == .integer(12))
        #expect(value[3] == .integer(Int64.min))
        #expect(value[4] == .double(1500))
        #expect(value[5] == .double(0.1))
        #expect(value[6] == .double(18_446_744_073_709_551_616))
        #expect(value[7] == "A")
        #expect(value[8] == nil)
    }

    @Test func bigIntegersStayExactUntilTheyNoLongerFit() throws {
        let value = try JSONValue.parse("[9223372036854775807, 9223372036854775808, 12345678901234567]")
        #expect(value[0] == .integer(Int64.max))
        guard case .double = value[1] else {
            Issue.record("2^63 does not fit in Int64 and must be a double")
            return
        }
        #expect(value[2]?.int64Value == 12_345_678_901_234_567)
        #expect(value.description == "[9223372036854775807,9.223372036854776e+18,12345678901234567]")
    }

    @Test func loneSurrogatesBecomeReplacementCharacters() throws {
        #expect(try JSONValue.parse(#""\ud83d x""#) == "\u{FFFD} x")
        #expect(try JSONValue.parse(#""\ude00""#) == "\u{FFFD}")
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#""\ud83d\u0041""#) }
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try JSONValue.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == .array([1]))
    }

    @Test func nestingUpToTheLimitIsAcceptedAndDeeperIsRefused() throws {
        let limit = JSONValue.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONValue.parse(deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONSyntaxError(offset: limit, reason: "nesting deeper than 512 levels")) {
            try JSONValue.parse(tooDeep)
        }
        let hostile = String(repeating: #"{"a":"#, count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(hostile) }
    }

    @Test(arguments: [
        ("", 0, "unexpected end of data"), ("{", 1, "expected a member name"), ("[1,]", 3, "unexpected character"),
        ("{\"a\" 1}", 5, "expected ':'"), ("tru", 0, "invalid literal"),
        ("01", 1, "unexpected data after the JSON value"),
        ("1.", 2, "invalid number"), ("\"\u{01}\"", 1, "control character in string"),
        ("{} x", 3, "unexpected data after the JSON value"), ("\"\\q\"", 3, "invalid escape"),
        ("-", 1, "invalid number"),
        ("[1 2]", 3, "expected ',' or ']'"), ("\"abc", 4, "unterminated string"),
    ])
    func rejectsInvalidJSONWithTheOffset(text: String, offset: Int, reason: String) {
        #expect(throws: JSONSyntaxError(offset: offset, reason: reason)) { try JSONValue.parse(text) }
    }

    @Test func syntaxErrorsDescribeThemselves() {
        #expect(JSONSyntaxError(offset: 3, reason: "invalid escape").description == "invalid escape at byte 3")
    }

    @Test func int64AcceptsStringsAndNumbers() {
        #expect(JSONValue.string("19817").int64Value == 19817)
        #expect(JSONValue.integer(19817).int64Value == 19817)
        #expect(JSONValue.double(20.0).int64Value == 20)
        #expect(JSONValue.double(20.5).int64Value == nil)
        #expect(JSONValue.string("x").int64Value == nil)
        #expect(JSONValue.bool(true).int64Value == nil)
        #expect(JSONValue.integer(7).intValue == 7)
        #expect(JSONValue.integer(7).doubleValue == 7)
        #expect(JSONValue.null.isNull)
    }
}

@Suite struct JSONWritingTests {
    @Test func escapesQuotesBackslashesControlsAndLineSeparators() {
        #expect(JSONValue.quoted("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(JSONValue.quoted("\n\r\t\u{8}\u{c}") == #""\n\r\t\b\f""#)
        #expect(JSONValue.quoted("\u{0}\u{1f}\u{7f}") == #""\u0000\u001f\u007f""#)
        #expect(JSONValue.quoted("x\u{2028}y\u{2029}z") == #""x\u2028y\u2029z""#)
        #expect(JSONValue.quoted("文档 📁 é \u{2027}\u{202A}") == "\"文档 📁 é \u{2027}\u{202A}\"")
        #expect(
            String(decoding: JSONValue.string("a\"b\\c\n\u{1}é").encoded(), as: UTF8.self) == #""a\"b\\c\n\u0001é""#)
    }

    @Test func numbers() {
        #expect(JSONValue.double(.nan).description == "null")
        #expect(JSONValue.double(-.infinity).description == "null")
        #expect(JSONValue.double(144.969).description == "144.969")
        #expect(JSONValue.double(20).description == "20")
        #expect(JSONValue.double(1e21).description == "1e+21")
        #expect(JSONValue.double(20).serialized(options: .doublesKeepFraction) == "20.0")
        #expect(JSONValue.double(.nan).serialized(options: .doublesKeepFraction) == "null")
    }

    @Test func roundTripKeepsEverything() throws {
        let text =
            #"{"z":[1,-2.5,"\u00e9\ud83d\ude00\"\\\n\u0001\u2028",true,false,null],"a":{},"m":[],"#
            + #""big":-9223372036854775808,"e":1.0e-7}"#
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.encoded()) == value)
        #expect(try JSONValue.parse(value.serialized(options: .prettyPrinted)) == value)
        #expect(
            value.description
                == #"{"z":[1,-2.5,"é😀\"\\\n\u0001\u2028",true,false,null],"a":{},"m":[],"big":-9223372036854775808,"#
                + #""e":1e-07}"#)
    }

    @Test func prettyKeepsOrderOrSortsKeysOnRequest() {
        let value = JSONValue.object([
            ("z", 1), ("a", .array([true, nil, 0.5])), ("m", .object([])), ("bad", .double(.nan)),
        ])
        #expect(
            value.serialized(options: .prettyPrinted) == """
                {
                  "z": 1,
                  "a": [
                    true,
                    null,
                    0.5
                  ],
                  "m": {},
                  "bad": null
                }
                """)
        #expect(value.serialized(options: .sortedKeys) == #"{"a":[true,null,0.5],"bad":null,"m":{},"z":1}"#)
        #expect(JSONValue.array([1]).serialized(options: .prettyPrinted, level: 1) == "[\n    1\n  ]")
    }
}

@Suite struct JSONStreamingParseTests {
    /// Streams `paths` and puts the elements back where they came from: must give the plain parse.
    private func reassembled(_ text: String, _ paths: [[String]]) throws -> (JSONValue, [[JSONValue]], [Bool]) {
        var elements: [[JSONValue]] = Array(repeating: [], count: paths.count)
        let (root, streamed) = try JSONValue.parse(bytes: Array(text.utf8), streaming: paths) { path, value in
            elements[path].append(value)
        }
        return (root, elements, streamed)
    }

    @Test func handsOverTheElementsOfTheNamedArrays() throws {
        let text = #"{"d":{"__next":"n","results":[{"Id":1},{"Id":2,"x":[1,2]}],"other":[3]},"value":[true,null]}"#
        let (root, elements, streamed) = try reassembled(text, [["d", "results"], ["value"], ["missing"]])
        #expect(streamed == [true, true, false])
        #expect(elements[0] == [try JSONValue.parse(#"{"Id":1}"#), try JSONValue.parse(#"{"Id":2,"x":[1,2]}"#)])
        #expect(elements[1] == [true, nil])
        #expect(root == (try JSONValue.parse(#"{"d":{"__next":"n","results":[],"other":[3]},"value":[]}"#)))
    }

    @Test func onlyTheFirstMemberOfANameAndOnlyArrays() throws {
        let (root, elements, streamed) = try reassembled(
            #"{"a":{"b":1,"b":[2]},"c":[1],"c":[2]}"#, [["a", "b"], ["c"]])
        #expect(streamed == [false, true])
        #expect(elements[0].isEmpty)
        #expect(elements[1] == [1])
        #expect(root == (try JSONValue.parse(#"{"a":{"b":1,"b":[2]},"c":[],"c":[2]}"#)))
    }

    @Test func withoutPathsItIsThePlainParse() throws {
        let texts = [
            #"{"a":[1,2.5,"x\ny",{"b":null}],"c":false}"#, "[1,2]", #""\ud83d\ude00""#, "\u{FEFF}{}",
        ]
        for text in texts {
            let (root, _, _) = try reassembled(text, [])
            #expect(root == (try JSONValue.parse(text)))
        }
    }

    @Test func syntaxErrorsAreTheSame() {
        let texts = [
            #"{"d":{"results":[{"Id":1},]}}"#, #"{"d":{"results":[1 2]}}"#, #"{"d":{"results":[1]}"#,
            #"{"d":{"results":[1]}} x"#, "{\"value\":[\"a\u{1}\"]}", #"{"value":[1], 3}"#, #"{"value""#, "",
        ]
        for text in texts {
            var plain: JSONSyntaxError?
            var streaming: JSONSyntaxError?
            do { _ = try JSONValue.parse(text) } catch { plain = error }
            do {
                _ = try JSONValue.parse(bytes: Array(text.utf8), streaming: [["d", "results"], ["value"]]) { _, _ in }
            } catch { streaming = error }
            #expect(plain != nil, "\(text)")
            #expect(plain == streaming, "\(text)")
        }
    }

    /// Skipping gives the same document around the arrays as streaming does, whatever the elements hold
    /// (brackets and quotes inside strings, escapes before a closing quote, nesting, scalars).
    @Test func skippingLeavesTheSameDocumentAsStreaming() throws {
        let texts = [
            #"{"d":{"results":[{"Id":1,"T":"a]}\"b","x":[[{}]]},{"Id":2,"u":"\\"}],"__next":"http://n/?p=2"}}"#,
            #"{"odata.metadata":"m","value":["]",1,-2.5e3,true,null,{"a":"}"}],"odata.nextLink":"L"}"#,
            #"{"value":[],"odata.nextLink":"L"}"#, #"{"value":3,"d":{"results":"not an array"}}"#,
        ]
        let paths = [["d", "results"], ["value"]]
        for text in texts {
            let skipped = try JSONValue.parse(bytes: Array(text.utf8), skipping: paths)
            let (root, _, streamed) = try reassembled(text, paths)
            #expect(skipped.root == root, "\(text)")
            #expect(skipped.skipped == streamed, "\(text)")
        }
        // What is skipped is not checked beyond nesting and strings; the document around it still is.
        #expect(throws: JSONSyntaxError.self) {
            _ = try JSONValue.parse(bytes: Array(#"{"value":[{"a":"unterminated]}"#.utf8), skipping: paths)
        }
        #expect(throws: JSONSyntaxError.self) {
            _ = try JSONValue.parse(bytes: Array(#"{"value":[{}] "x":1}"#.utf8), skipping: paths)
        }
    }

    @Test func stringsWithAndWithoutEscapes() throws {
        #expect(
            try JSONValue.parse(#"["plain","tab\there","é\u00e9","a\"b\\c"]"#)
                == .array(["plain", "tab\there", "éé", "a\"b\\c"]))
        #expect(throws: JSONSyntaxError(offset: 3, reason: "control character in string")) {
            try JSONValue.parse("[\"a\u{1}\"]")
        }
    }
}
