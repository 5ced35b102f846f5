import HTML
import Testing

/// A URL typed on a command line is sent as a browser sends what is typed in its address bar.
@Suite struct TypedURLTests {
    @Test func spacesAndUnsafeBytesAreEncodedAndDelimitersKept() {
        #expect(
            URLResolver.typed("/_api/web/GetFolderByServerRelativeUrl('/Shared Documents')?$select=Name&x=a b")
                == "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')?$select=Name&x=a%20b")
        #expect(URLResolver.typed("https://h/a%20b/{x}|\\^") == "https://h/a%20b/%7Bx%7D%7C%5C%5E")
        #expect(URLResolver.typed("  https://h/é\"<>`\n") == "https://h/%C3%A9%22%3C%3E%60")
    }
}
