import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import spconnect_status

/// Headless Chromium, when installed (Debian package `chromium`; `.ci/run` installs it).
enum Chromium {
    /// The browser's path, or nil when it is not installed.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for folder in folders + ["/usr/bin"] {
            for name in ["chromium", "chromium-browser"]
            where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }()

    static let skipped = "chromium is not installed: the browser checks are skipped (apt-get install -y chromium)"

    /// Runs `chromium --headless … --dump-dom url` in a window `width` pixels wide and returns the serialised DOM
    /// after the page's scripts ran; killed after `timeout`.
    static func dumpDOM(_ url: String, width: Int = 1280, timeout: Duration = .seconds(60)) async throws -> String {
        let path = try #require(Chromium.path)
        let scratch = NSTemporaryDirectory() + "spc-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = scratch
        let output = scratch + "/dom.html"
        let status = await spawnToExit(
            path,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--hide-scrollbars", "--user-data-dir=" + scratch + "/profile", "--window-size=\(width),900",
                "--virtual-time-budget=3000", "--dump-dom", url,
            ], environment: environment, standardOutput: output, timeout: timeout)
        #expect(status == 0, "chromium exited with \(status)")
        return String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
    }
}

/// What the layout script found, read back from the DOM Chromium dumped.
struct Layout: Decodable {
    var viewport: Int
    var pageScrollWidth: Int
    var wrapWidth: Int
    var wrapScrollWidth: Int
    var headers: [String]
    /// Per row, per cell: how many lines its text takes.
    var rows: [[Int]]

    /// A script measuring the first table of the page (its wrapper's and the page's widths, each cell's lines)
    /// and writing the result as JSON into `<pre id="layout">`.
    static let script = """
        (function () {
          var wrap = document.querySelector('.table-wrap'), table = wrap.querySelector('table');
          function lines(cell) {
            var range = document.createRange(); range.selectNodeContents(cell);
            var tops = {}, rects = range.getClientRects();
            for (var i = 0; i < rects.length; i++) if (rects[i].width > 0) tops[Math.round(rects[i].top)] = 1;
            return Object.keys(tops).length;
          }
          var result = {
            viewport: document.documentElement.clientWidth,
            pageScrollWidth: document.documentElement.scrollWidth,
            wrapWidth: wrap.clientWidth, wrapScrollWidth: wrap.scrollWidth,
            headers: [].map.call(table.querySelectorAll('thead th'), function (th) { return th.textContent; }),
            rows: [].map.call(table.querySelectorAll('tbody tr'), function (tr) { return [].map.call(tr.cells, lines); })
          };
          var pre = document.createElement('pre'); pre.id = 'layout'; pre.textContent = JSON.stringify(result);
          document.body.appendChild(pre);
        })();
        """

    /// Loads the app's page `html` in Chromium at `width` pixels, exactly as served but without its policy (which
    /// forbids scripts) and with ``script`` added, from a server of the test's own; returns the measurements.
    static func measure(_ html: String, width: Int) async throws -> Layout {
        let policy = try #require(
            html.range(of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, options: .regularExpression))
        var page = html
        page.removeSubrange(policy)
        page = page.replacingOccurrences(of: "</body>", with: "<script>" + script + "</script></body>")
        let bytes = Array(page.utf8)
        let server = try HTTPServer { _ in
            HTTPServerResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(bytes))
        }
        defer { server.stop() }
        let dom = try await Chromium.dumpDOM(server.baseURL + "/", width: width)
        let start = try #require(dom.range(of: "<pre id=\"layout\">"), "no measurements in: \(dom.suffix(500))")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    }

    /// The lines of every cell of the column headed `title`.
    func column(_ title: String) -> [Int] {
        guard let index = headers.firstIndex(of: title) else { return [] }
        return rows.map { $0.indices.contains(index) ? $0[index] : 0 }
    }
}

/// The pages as a real browser lays them out: headless Chromium, measured in the DOM (not in pixels of a picture).
@Suite(.serialized) struct BrowserTests {
    @Test(.enabled(if: Chromium.path != nil, Comment(rawValue: Chromium.skipped)))
    func chromiumRendersTheSessionPage() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let dom = try await Chromium.dumpDOM(fixture.baseURL + "/")
        #expect(dom.contains("Signed in as Alice Example"), "DOM was: \(dom.prefix(2000))")
        #expect(dom.contains("<h1>SharePoint session</h1>"))
        #expect(dom.contains("alice@contoso.test"))
        for cookie in fixture.session.cookies { #expect(!dom.contains(cookie.value)) }
    }

    /// At 1280 px a page of all 20 tasks uses the width: every cell on one line (no wrapped dates, titles or names),
    /// the table as wide as it needs and no wider than the page. At 390 px (a phone) the page itself does not
    /// scroll sideways; the table scrolls inside its frame, dates still on one line.
    @Test(.enabled(if: Chromium.path != nil, Comment(rawValue: Chromium.skipped)))
    func aPageOfTasksUsesTheWidthAndScrollsOnAPhone() async throws {
        let fixture = try await StatusFixture(pageSize: 20)
        defer { fixture.stop() }
        let html = try await fixture.get("/lists/Tasks").text

        let wide = try await Layout.measure(html, width: 1280)
        #expect(wide.viewport == 1280)
        #expect(wide.rows.count == 20)
        #expect(wide.headers.contains("Modified By"))
        #expect(wide.column("Due Date").count == 20 && wide.column("Due Date").allSatisfy { $0 == 1 }, "\(wide.rows)")
        #expect(wide.column("Modified").allSatisfy { $0 == 1 })
        #expect(wide.rows.allSatisfy { $0.allSatisfy { $0 == 1 } }, "a cell wrapped at 1280 px: \(wide.rows)")
        #expect(wide.wrapScrollWidth <= wide.wrapWidth, "the table scrolls at 1280 px")
        #expect(wide.pageScrollWidth <= wide.viewport)
        #expect(wide.wrapWidth > 1000, "the page column is \(wide.wrapWidth) px wide: it does not use the width")

        let narrow = try await Layout.measure(html, width: 390)
        #expect(narrow.pageScrollWidth <= narrow.viewport, "the page scrolls sideways at 390 px")
        #expect(narrow.wrapScrollWidth > narrow.wrapWidth, "the table should scroll inside its frame")
        #expect(narrow.column("Due Date").allSatisfy { $0 == 1 })
    }
}
