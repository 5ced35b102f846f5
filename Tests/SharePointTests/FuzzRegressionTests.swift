import Foundation
import JSON
import SharePoint
import Testing

/// Inputs the libFuzzer targets in Tools/fuzz found (docs/fuzzing.md), kept as tests.
@Suite("Fuzz regressions: SharePoint bodies")
struct SharePointFuzzRegressionTests {
    /// fuzz-odata's date oracle: `/Date(ms)/` at the ends of Int64 read as dates whose milliseconds no longer fit an
    /// Int64 (the ISO 8601 text of tables, CSV and JSON traps on them), and `abs` of Int64.min traps by itself.
    /// Dates are read within JavaScript's range (±8.64e15 ms), nil beyond.
    @Test(
        "legacy /Date(ms)/ values are read within JavaScript's date range",
        arguments: [
            ("/Date(9223372036854775807)/", nil), ("/Date(-9223372036854775808)/", nil),
            ("/Date(8640000000000001)/", nil), ("/Date(8640000000000000)/", 8_640_000_000_000 as Double),
            ("/Date(-8640000000000000)/", -8_640_000_000_000), ("/Date(1700000000000)/", 1_700_000_000),
        ] as [(String, Double?)])
    func legacyDateRange(text: String, seconds: Double?) {
        #expect(ODataDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test("an entity's out-of-range legacy date is no date")
    func entityDate() throws {
        let entity = try ODataEntity(
            json: JSONValue.parse(#"{"Created":"\/Date(9223372036854775807)\/","Modified":"\/Date(0)\/"}"#))
        #expect(entity.date("Created") == nil)
        #expect(entity.date("Modified") == Date(timeIntervalSince1970: 0))
    }

    /// fuzz-odata's name oracle: an `_` kept as is because `_x0001f600` was followed by a character that is not `_`
    /// became an escape once that character was encoded (`_x0001f600_xfffd_…`), so the name decoded to `😀…`. Such
    /// an `_` is encoded now, and every name decodes back to itself.
    @Test(
        "an underscore that an encoded character would turn into an escape is encoded",
        arguments: [
            ("Server_x0001f600\u{FFFD}Uri", "Server_x005f_x0001f600_xfffd_Uri"),
            ("_x0041\u{E9}", "_x005f_x0041_x00e9_"), ("a_x0041 b", "a_x005f_x0041_x0020_b"),
            ("a_x0041_b", "a_x005f_x0041_b"), ("a_x0041b", "a_x0041b"), ("My_Field", "My_Field"),
            ("a_x00zz!", "a_x00zz_x0021_"),
        ])
    func nameEscapes(name: String, encoded: String) {
        #expect(OData.encodeName(name) == encoded)
        #expect(Array(OData.decodeName(OData.encodeName(name)).unicodeScalars) == Array(name.unicodeScalars))
    }

    /// fuzz-odata: an error body whose code is "" or "," traps in SharePointError's body reader (`parts[0]` of an
    /// empty split). Such a body (a proxy's or a broken server's) should give an error, not a crash.
    @Test
    func emptyErrorCodeIsReadNotATrap() {
        for body in [#"{"error":{"code":"","message":"x"}}"#, #"{"odata.error":{"code":","}}"#, "<m:code></m:code>"] {
            let error = SharePointError(status: 500, headers: [(String, String)](), body: Data(body.utf8))
            #expect(error.code == nil)
        }
    }
}
