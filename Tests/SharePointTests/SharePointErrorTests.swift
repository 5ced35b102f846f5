import Foundation
import JSON
import SharePoint
import Testing

private func body(_ text: String) -> Data { Data(text.utf8) }

@Suite struct SharePointErrorTests {
    // MARK: Real captures

    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func listMissingCaptureIsListNotFound() throws {
        let error = SharePointError(
            status: 404, headers: [("SPRequestGuid", "76f60ca0")],
            body: try Corpus.data("error_404_list_missing_nometadata.json"),
            url: "https://bertonline.sharepoint.com/sites/prov-2/_api/web/lists/getbytitle('nonexisting')")
        #expect(error.kind == .listNotFound)
        #expect(error.code == -1)
        #expect(error.exceptionName == "System.ArgumentException")
        #expect(error.language == "en-US")
        #expect(error.headers.requestGuid == "76f60ca0")
        #expect(error.description.hasPrefix("The list was not found."))
        #expect(error.description.contains("List 'nonexisting' does not exist at site with URL"))
        #expect(error.description.contains("HTTP 404, -1, System.ArgumentException"))
        #expect(!error.needsReauthentication && !error.isRetryable)
    }

    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func fileMissingCaptureIsFileNotFound() throws {
        let error = SharePointError(
            status: 404, headers: [String: String](), body: try Corpus.data("error_404_file_missing_nometadata.json"))
        #expect(error.kind == .fileNotFound)
        #expect(error.code == -2_130_575_338)
        #expect(error.exceptionName == "Microsoft.SharePoint.SPException")
        #expect(error.message == "The file /sites/prov-2/Shared Documents/IdontExist.pdf does not exist.")
    }

    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func duplicateListCaptureIsAlreadyExists() throws {
        let error = SharePointError(
            status: 500, headers: [String: String](), body: try Corpus.data("error_500_list_exists_nometadata.json"))
        #expect(error.kind == .alreadyExists)
        #expect(error.code == -2_130_575_342)
        #expect(error.message?.contains("already exists in this Web site.  Please choose another title.") == true)
    }

    @Test(.enabled(if: Corpus.available, Corpus.absentMessage))
    func anonymousCaptureIsFormsAuthRequired() throws {
        let record = try JSONValue.parse(try Corpus.data("http_403_anonymous_file_request.capture.json"))
        var headers: [String: String] = [:]
        for (name, value) in record["headers"]?.objectValue ?? [] { headers[name] = value.stringValue }
        // The 13-byte text/plain body was not kept by the capture; a plain-text body is the realistic stand-in.
        let error = SharePointError(status: 403, headers: headers, body: body("403 FORBIDDEN"))
        let expectedLogin =
            "https://imperiallondon.sharepoint.com/_forms/default.aspx?ReturnUrl=/_layouts/15/error.aspx&Source="
            + "%2fsites%2ffom%2fsph%2fhiv-inference-group%2fdocs%2fData%2fshape%2520files%2fDHS%2fAO2006MIS.zip"
        #expect(error.kind == .formsAuthRequired)
        #expect(error.kind.loginURL == expectedLogin)
        #expect(error.needsReauthentication)
        #expect(error.message == "403 FORBIDDEN")
        #expect(
            error.headers["X-Forms_Based_Auth_Return_Url"]
                == "https://imperiallondon.sharepoint.com/_layouts/15/error.aspx")
        #expect(error.headers.requestGuid == "c2593e9f-9071-2000-c96e-2f19056171d5")
        #expect(error.description.hasPrefix("Not signed in or the session has expired: sign in again"))
        #expect(error.description.contains(expectedLogin))
    }

    // MARK: Flavours of the error body

    @Test func verboseAndNometadataBodiesReadTheSame() {
        let verbose = body(
            #"{"error":{"code":"-2130575338, Microsoft.SharePoint.SPException","message":{"lang":"en-US","#
                + #""value":"The file /sites/team/Shared Documents/x.pdf does not exist."}}}"#)
        let light = body(
            #"{"odata.error":{"code":"-2130575338, Microsoft.SharePoint.SPException","message":{"lang":"en-US","#
                + #""value":"The file /sites/team/Shared Documents/x.pdf does not exist."}}}"#)
        let a = SharePointError(status: 404, headers: [String: String](), body: verbose)
        let b = SharePointError(status: 404, headers: [String: String](), body: light)
        #expect(a == b)
        #expect(a.kind == .fileNotFound)
        #expect(a.rawCode == "-2130575338, Microsoft.SharePoint.SPException")
        #expect(a.message == "The file /sites/team/Shared Documents/x.pdf does not exist.")
    }

    @Test func atomXMLErrorBody() {
        let xml = body(
            #"<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/"#
                + #"dataservices/metadata"><m:code>-1, System.ArgumentException</m:code><m:message xml:lang="en-US">"#
                + #"List &apos;Nope&apos; does not exist &amp; never did.</m:message></m:error>"#)
        let error = SharePointError(status: 404, headers: ["Content-Type": "application/xml"], body: xml)
        #expect(error.kind == .listNotFound)
        #expect(error.code == -1)
        #expect(error.message == "List 'Nope' does not exist & never did.")
    }

    @Test func bearerErrorDescription() {
        let error = SharePointError(
            status: 401, headers: ["WWW-Authenticate": "Bearer realm=\"abc\""],
            body: body(#"{"error_description":"Invalid issuer or signature."}"#))
        #expect(error.kind == .authenticationRequired)
        #expect(error.needsReauthentication)
        #expect(error.message == "Invalid issuer or signature.")
        #expect(error.headers.wwwAuthenticate == "Bearer realm=\"abc\"")
    }

    @Test func htmlBodyGivesNoMessageButStillAnActionableDescription() {
        let error = SharePointError(
            status: 500, headers: [String: String](), body: body("<html><body>Server Error</body></html>"))
        #expect(error.kind == .server)
        #expect(error.message == nil)
        #expect(error.description == "SharePoint reported an error. (HTTP 500)")
    }

    // MARK: Named cases (shapes from docs/sharepoint-protocol.md §6.9–6.12)

    @Test func thresholdExceeded() {
        let error = SharePointError(
            status: 500, headers: [String: String](),
            body: body(
                #"{"odata.error":{"code":"-2147024860, Microsoft.SharePoint.SPQueryThrottledException","#
                    + #""message":{"lang":"en-US","value":"The attempted operation is prohibited because it exceeds"#
                    + #" the list view threshold."}}}"#))
        #expect(error.kind == .thresholdExceeded)
        #expect(error.exceptionName == "Microsoft.SharePoint.SPQueryThrottledException")
        #expect(error.description.contains("Filter on an indexed column"))
        #expect(error.description.contains("$skiptoken"))
        #expect(error.description.contains("exceeds the list view threshold."))
    }

    /// SharePoint 2013 RTM answers a JSON-light `Accept` with 406 (protocol §6.1): say which option to use.
    @Test func notAcceptedFlavorNamesTheOption() {
        let body = Data("The HTTP header ACCEPT is missing or its value is invalid.".utf8)
        let error = SharePointError(status: 406, headers: [:], body: body, url: "https://sp2013/_api/web")
        #expect(error.kind == .flavorNotAccepted)
        #expect(error.description.contains("--odata verbose"))
        #expect(!error.isRetryable && !error.needsReauthentication)
    }

    @Test(arguments: [
        (429, "120", 120 as Int?), (503, "7", 7), (503, "", nil), (429, "Wed, 21 Oct 2026 07:28:00 GMT", nil),
    ])
    func throttled(status: Int, retryAfter: String, expected: Int?) {
        let headers = retryAfter.isEmpty ? [:] : ["retry-after": retryAfter]
        let error = SharePointError(status: status, headers: headers, body: Data())
        #expect(error.kind == .throttled)
        #expect(error.kind.retryAfter == expected)
        #expect(error.isRetryable)
        if let expected {
            #expect(error.description.contains("Wait \(expected) seconds (Retry-After)"))
        } else {
            #expect(error.description.contains("Wait before retrying"))
        }
    }

    @Test(arguments: ["-2130575251, Microsoft.SharePoint.SPException", "-2130575252, Microsoft.SharePoint.SPException"])
    func digestExpired(code: String) {
        let error = SharePointError(
            status: 403, headers: [String: String](),
            body: body(
                #"{"error":{"code":"\#(code)","message":{"lang":"en-US","value":"The security validation for this"#
                    + #" page is invalid and might be corrupted. Please use your web browser's Back button to try"#
                    + #" your operation again."}}}"#))
        #expect(error.kind == .digestExpired)
        #expect(!error.needsReauthentication)
        #expect(error.description.contains("/_api/contextinfo"))
    }

    @Test func accessDenied() {
        let json = body(
            #"{"odata.error":{"code":"-2147024891, System.UnauthorizedAccessException","message":{"lang":"en-US","#
                + #""value":"Access denied. You do not have permission to perform this action or access this resource."}}}"#
        )
        let forbidden = SharePointError(status: 403, headers: [String: String](), body: json)
        #expect(forbidden.kind == .accessDenied)
        #expect(!forbidden.needsReauthentication)
        #expect(forbidden.description.hasPrefix("Access denied: the signed-in account has no permission"))
        let unauthorized = SharePointError(status: 401, headers: [String: String](), body: json)
        #expect(unauthorized.kind == .accessDenied)
        #expect(unauthorized.needsReauthentication)
    }

    @Test func formsHeaderWinsOverAnAccessDeniedBody() {
        let error = SharePointError(
            status: 403, headers: [("X-Forms_Based_Auth_Required", "https://sp.contoso.local/_login/default.aspx")],
            body: body(#"{"error":{"code":"-2147024891, System.UnauthorizedAccessException","message":{"value":"x"}}}"#)
        )
        #expect(error.kind == .formsAuthRequired)
        #expect(error.kind.loginURL == "https://sp.contoso.local/_login/default.aspx")
    }

    @Test func preconditionConflictItemAndOtherStatuses() {
        #expect(SharePointError(status: 412, headers: [String: String](), body: Data()).kind == .preconditionFailed)
        #expect(SharePointError(status: 409, headers: [String: String](), body: Data()).kind == .conflict)
        #expect(SharePointError(status: 400, headers: [String: String](), body: Data()).kind == .badRequest)
        let item = SharePointError(
            status: 404, headers: [String: String](),
            body: body(
                #"{"odata.error":{"code":"-2147024809, System.ArgumentException","message":{"lang":"en-US","#
                    + #""value":"Item does not exist. It may have been deleted by another user."}}}"#))
        #expect(item.kind == .itemNotFound)
        let folder = SharePointError(
            status: 404, headers: [String: String](),
            body: body(
                #"{"error":{"code":"-2147024894, System.IO.FileNotFoundException","message":{"value":"File Not Found."}}}"#
            ))
        #expect(folder.kind == .fileNotFound)
        #expect(SharePointError(status: 404, headers: [String: String](), body: Data()).kind == .notFound)
        let precondition = SharePointError(status: 412, headers: [String: String](), body: Data())
        #expect(precondition.description.contains("etag mismatch"))
    }

    @Test func itemMissingIsRecognisedByTheRequestURL() {
        // CSOM and REST report a missing item with the same code as a missing file.
        let json = body(
            #"{"error":{"code":"-2130575338, Microsoft.SharePoint.SPException","message":{"lang":"en-US","#
                + #""value":"Item does not exist. It may have been deleted by another user."}}}"#)
        let item = SharePointError(
            status: 404, headers: [String: String](), body: json,
            url: "https://c/sites/t/_api/web/lists/getbytitle('T')/items(99)?$select=Id")
        #expect(item.kind == .itemNotFound)
        #expect(item.description.contains("https://c/sites/t/_api/web/lists/getbytitle('T')/items(99)"))
        let file = SharePointError(
            status: 404, headers: [String: String](), body: json,
            url: "https://c/sites/t/_api/web/GetFileByServerRelativeUrl('/sites/t/D/items(1).txt')")
        #expect(file.kind == .fileNotFound)
        let list = SharePointError(
            status: 404, headers: [String: String](),
            body: body(
                #"{"odata.error":{"code":"-1, System.ArgumentException","message":{"value":"List 'T' does not exist."}}}"#
            ),
            url: "https://c/sites/t/_api/web/lists/getbytitle('T')/items(1)")
        #expect(list.kind == .listNotFound)
    }

    @Test func retryAfterAsHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_792_567_600)  // Wed, 21 Oct 2026 07:26:40 GMT
        let date = ResponseHeaders([("Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT")])
        #expect(date.retryAfterSeconds == nil)
        #expect(date.retryAfter(now: now) == 80)
        #expect(ResponseHeaders([("Retry-After", "15")]).retryAfter(now: now) == 15)
        #expect(ResponseHeaders([("Retry-After", "soon")]).retryAfter(now: now) == nil)
        #expect(ResponseHeaders([(String, String)]()).retryAfter(now: now) == nil)
    }

    @Test func decodingFailuresAreUnexpectedResponses() {
        #expect(throws: SharePointError.self) { try Web.decode(Data("not json".utf8)) }
        do {
            _ = try ODataDocument(data: Data("{} x".utf8))
            Issue.record("trailing data must not parse")
        } catch {
            #expect(error.kind == .unexpectedResponse)
            #expect(
                error.kind.detail == "The response is not valid JSON: unexpected data after the JSON value at byte 3")
        }
        do {
            _ = try File.decode(Data(#"{"Name":"a.txt"}"#.utf8))
            Issue.record("a file without Length must not decode")
        } catch {
            guard error.kind == .unexpectedResponse, let detail = error.kind.detail else {
                Issue.record("wrong kind \(error.kind)")
                return
            }
            #expect(detail.contains("'Length'"))
            #expect(error.description.hasPrefix("Unexpected response from SharePoint:"))
        }
    }

    @Test func responseHeadersAreCaseInsensitive() {
        let headers = ResponseHeaders([("retry-after", " 30 "), ("etag", "\"2\""), ("SPRequestGuid", "g")])
        #expect(headers.retryAfterSeconds == 30)
        #expect(headers["ETAG"] == "\"2\"")
        #expect(headers.etag == "\"2\"")
        #expect(headers.requestGuid == "g")
        #expect(headers["missing"] == nil)
    }
}
