import Testing

@testable import HTML

/// The Swift tree is built from libxml2's parse events; it must be the tree libxml2 builds itself.
@Suite("The tree built from parse events is libxml2's own tree")
struct TreeBuildingTests {
    func expectSameTree(_ bytes: [UInt8], charset: String? = nil, _ label: String) {
        let url = "https://x.test/a/b"
        let tree = DOMParser.parseTree(bytes: bytes, url: url, charset: charset)
        let reference = LibXMLTreeReading.parse(bytes: bytes, url: url, charset: charset)
        #expect((tree == nil) == (reference == nil), "\(label): one parse gave no tree")
        guard let tree, let reference else { return }
        let difference = LibXMLTreeReading.firstDifference(tree.root, reference)
        #expect(difference == nil, "\(label): \(difference ?? "")")
        let inOrder = tree.root.descendants.filter { $0.kind == .element }
        #expect(tree.elements.elementsEqual(inOrder, by: ===), "\(label): the elements are not in document order")
    }

    @Test("every corpus page, whole and cut anywhere in its first and last kilobytes and at fractions")
    func corpusPages() throws {
        guard Corpus.isAvailable else {
            print("skipped: \(Corpus.skipMessage)")
            return
        }
        for file in Corpus.fileNames {
            let bytes = try #require(readFile(Corpus.directory + "/" + file))
            var cuts = Set([bytes.count, bytes.count / 2, bytes.count / 3, bytes.count * 3 / 4])
            for cut in stride(from: 0, to: min(bytes.count, 1024), by: 37) { cuts.insert(cut) }
            for cut in stride(from: max(0, bytes.count - 1024), to: bytes.count, by: 41) { cuts.insert(cut) }
            for cut in cuts.sorted() { expectSameTree(Array(bytes.prefix(cut)), "\(file) cut at \(cut)") }
            expectSameTree(bytes, charset: "iso-8859-1", "\(file) as ISO-8859-1")
        }
    }

    @Test(
        "what libxml2's tree builder does at the edges",
        arguments: [
            "",
            " ",
            "plain text, no markup",
            "<!-- first --><p>a</p></html><div>after the end</div>text after<!-- c --><span>x</span>",
            "<!DOCTYPE html><p>a</p></html><div>after the end</div><?pi x?><b>y</b>",
            "<?xml version=\"1.0\"?><html><body>a</body></html><p>after</p>",
            "<p>one<!-- c -->two<?pi?>three</p>",
            "<p>a&amp;b&#65;&#x42;&nbsp;c&unknown;d</p>",
            "<script>var a = '<b>';</script><style>p{}</style><script></script>",
            "<p>a<script>x</script>b</p>",
            "<o:p>office</o:p><x:y:z>n</x:y:z><:a>b</:a><xml:lang>c</xml:lang><a: href=x>d</a:>",
            "<input checked disabled hidden required value><select multiple><option selected>x</select>",
            "<div xml:lang=en xmlns:o=urn:x o:attr=1 CLASS=Up ID=Mixed>x</div>",
            "<p>a\0b</p><p>\0</p><script>c\0d</script>",
            "<table><form><tr><td><input name=a></td></tr></form></table><input name=b>",
            "<html><head><title>t</title></head><body><p>x</body></html>  \n<!-- tail -->",
            "<title>a</title><!DOCTYPE html><p>misplaced doctype</p></html><div>x</div>",
            "<p>é ü 日本語 \u{1F600}</p><p title='é'>x</p>",
            "<textarea>\n<b>not markup</b></textarea><noscript><p>n</p></noscript>",
            "<frameset><frame src=a></frameset><p>x</p>",
        ])
    func edges(_ html: String) {
        expectSameTree(Array(html.utf8), html)
    }

    @Test("raw text longer than libxml2's 1,000-byte chunks is one node, as is text with many entities")
    func longText() {
        let script = "<script>" + String(repeating: "var x = 1; // é\n", count: 400) + "</script>"
        expectSameTree(Array(script.utf8), "long script")
        let text = "<p>" + String(repeating: "a&amp;b ", count: 2000) + "</p>"
        expectSameTree(Array(text.utf8), "long text with entities")
    }

    @Test("past libxml2's nesting limit, reading stops where libxml2's stops", arguments: [250, 254, 255, 256, 300])
    func deepNesting(depth: Int) {
        let open = String(repeating: "<div class=d>", count: depth)
        let html =
            "<p>start</p>" + open + "<span id=deep>deep</span>" + String(repeating: "</div>", count: depth)
            + "<p>after</p>"
        expectSameTree(Array(html.utf8), "nesting \(depth)")
    }

    @Test("bytes that are not UTF-8, and a charset given by the caller or the page")
    func encodings() {
        let latin: [UInt8] =
            Array("<p>caf".utf8) + [0xE9] + Array("</p><p>".utf8) + [0xFF, 0xFE, 0x80] + Array("</p>".utf8)
        expectSameTree(latin, "Latin-1 bytes")
        expectSameTree(latin, charset: "iso-8859-1", "Latin-1 bytes, charset given")
        expectSameTree(latin, charset: "no-such-charset", "an unknown charset")
        let meta = Array("<meta charset=iso-8859-1><p>caf".utf8) + [0xE9] + Array("</p>".utf8)
        expectSameTree(meta, "charset from the page")
        expectSameTree([0xFF, 0xFE] + Array("<\0p\0>\0x\0".utf8), "a UTF-16 byte-order mark")
    }
}
