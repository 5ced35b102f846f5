import Presentation
import Testing

@Suite struct HTMLTests {
    @Test func textAndAttributeValuesAreAlwaysEscaped() {
        let node = HTMLNode.element(
            "p", [HTMLAttribute("title", "\"><script>alert(1)</script>"), HTMLAttribute("data-x", "a'b&c")],
            [.text("<script>alert(1)</script> & 'q' \"d\""), .element("br"), .text("x\u{0}y\u{1b}z")])
        #expect(
            node.render()
                == "<p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\" data-x=\"a&#39;b&amp;c\">"
                + "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;q&#39; &quot;d&quot;<br>x\u{FFFD}y\u{FFFD}z</p>")
        #expect(HTMLNode.escaped("&amp;") == "&amp;amp;")
    }

    @Test func elementAndAttributeNamesFromDataAreRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = HTMLNode.element("p onclick=alert(1)")
        }
        await #expect(processExitsWith: .failure) {
            _ = HTMLAttribute("x\"><script", "v")
        }
        #expect(HTMLNode.element("h2", [HTMLAttribute("data-row-1", "v")]).render() == "<h2 data-row-1=\"v\"></h2>")
    }

    @Test func booleanAttributesVoidElementsAndFragments() {
        let node = HTMLNode.fragment([
            .element("input", [HTMLAttribute("type", "checkbox"), HTMLAttribute("checked", nil)], [.text("ignored")]),
            .element("EM", text: "x"),
        ])
        #expect(node.render() == "<input type=\"checkbox\" checked><em>x</em>")
    }

    @Test func urlAttributesRefuseScriptSchemes() {
        func link(_ href: String) -> String {
            HTMLNode.element("a", [HTMLAttribute("href", href)], text: "x").render()
        }
        #expect(
            link("https://contoso.sharepoint.com/sites/a?b=1&c=2")
                == "<a href=\"https://contoso.sharepoint.com/sites/a?b=1&amp;c=2\">x</a>")
        #expect(link("/sites/a") == "<a href=\"/sites/a\">x</a>")
        #expect(link("report:2026.html") == "<a href=\"#\">x</a>")
        #expect(link("./a:b") == "<a href=\"./a:b\">x</a>")
        #expect(link("mailto:a@b.c") == "<a href=\"mailto:a@b.c\">x</a>")
        #expect(link("javascript:alert(1)") == "<a href=\"#\">x</a>")
        #expect(link(" JavaScript:alert(1)") == "<a href=\"#\">x</a>")
        #expect(link("java\tscript:alert(1)") == "<a href=\"#\">x</a>")
        #expect(link("data:text/html,<script>") == "<a href=\"#\">x</a>")
        let image = HTMLNode.element("img", [HTMLAttribute("src", "vbscript:x"), HTMLAttribute("alt", "javascript:")])
        #expect(image.render() == "<img src=\"#\" alt=\"javascript:\">")
    }

    @Test func stylesheetIsTheOnlyRawContentAndCannotCloseItsElement() {
        let style = HTMLNode.stylesheet("p>a{color:red}</style><script>alert(1)</script>")
        #expect(style.render() == "<style>p>a{color:red}<\\/style><script>alert(1)<\\/script></style>")
    }

    @Test func pageTemplateIsSelfContainedAndEscapesItsTitle() {
        let page = HTMLPage.render(
            title: "Status </title><script>", body: [.element("h1", text: "Signed in as <b>a@b</b>")],
            stylesheet: "body{margin:0}")
        let expected =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;\">"
            + "<title>Status &lt;/title&gt;&lt;script&gt;</title><style>body{margin:0}</style></head>"
            + "<body><main><h1>Signed in as &lt;b&gt;a@b&lt;/b&gt;</h1></main></body></html>\n"
        #expect(page == expected)

        let standard = HTMLPage.render(title: "t", body: [])
        #expect(standard.contains("@media (max-width:30rem)"))
        #expect(!standard.contains("<script"))
        #expect(!standard.contains("http://") && !standard.contains("https://") && !standard.contains("<link"))
    }

    @Test func recordSetTableEscapesEveryCellAndMarksNumberColumns() {
        let set = RecordSet(columns: [Column("Title"), Column("Items", title: "<Count>")], records: Fixtures.records)
        let html = HTMLPage.table(set).render()
        let expected =
            "<div class=\"table-wrap\"><table><thead><tr><th>Title</th><th class=\"num\">&lt;Count&gt;</th></tr></thead><tbody>"
            + "<tr><td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td class=\"num\">3</td></tr>"
            + "<tr><td>Say &quot;hi&quot;, then\nleave</td><td class=\"num\">-12</td></tr>"
            + "<tr><td>=cmd|&#39; /C calc&#39;!A0</td><td class=\"num\">1000000</td></tr>"
            + "<tr><td>\u{FFFD}[31mred\u{FFFD}[0m</td><td class=\"num\">0</td></tr>"
            + "<tr><td>Fotos 📁 文档 e\u{301}</td><td class=\"num\">7</td></tr>"
            + "</tbody></table></div>"
        #expect(html == expected)
    }
}
