import Foundation
import Presentation

/// The shared record set: ordinary values next to hostile ones (markup, quotes, commas, newlines, a spreadsheet
/// formula, an ANSI escape, emoji, CJK, combining marks).
enum Fixtures {
    static let modified = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z

    static let records: [Record] = [
        ["Title": "<script>alert(1)</script>", "Items": 3, "Size": 1.5, "Hidden": false, "Modified": .date(modified)],
        ["Title": "Say \"hi\", then\nleave", "Items": -12, "Size": nil, "Hidden": true, "Modified": nil],
        ["Title": "=cmd|' /C calc'!A0", "Items": 1_000_000, "Size": 0.25, "Hidden": false, "Modified": nil],
        ["Title": "\u{1b}[31mred\u{1b}[0m", "Items": 0, "Size": 2.0, "Hidden": false, "Modified": nil],
        ["Title": "Fotos 📁 文档 e\u{301}", "Items": 7, "Size": nil, "Hidden": nil, "Modified": nil],
    ]

    static let recordSet = RecordSet(records: records)
}
