/// What an element's name tells the page readers (skipped as unseen, inline, a heading, a control…), looked up once
/// when the node is made: the readers ask it of every element they walk, and one look-up replaces a set look-up per
/// question. The name sets themselves stay where their rules are documented; this table is built from them.
struct ElementNameTraits: OptionSet {
    let rawValue: UInt8

    /// Never shown as text on load (``ErrorTextReader/unseenElements``).
    static let unseen = ElementNameTraits(rawValue: 1 << 0)
    /// Does not break a line of text (``ErrorTextReader/inlineElements``).
    static let inline = ElementNameTraits(rawValue: 1 << 1)
    /// `h1`–`h6` (``TextBlocks/headingElements``).
    static let heading = ElementNameTraits(rawValue: 1 << 2)
    /// A form control a text block stops at: `input`, `button`, `select`, `textarea`.
    static let control = ElementNameTraits(rawValue: 1 << 3)
    /// Emphasis: `strong`, `b`, `em`.
    static let emphasis = ElementNameTraits(rawValue: 1 << 4)
    /// An action beside a message, not part of it: `a`, `button`.
    static let action = ElementNameTraits(rawValue: 1 << 5)
    /// A start tag the raw-markup scan follows for form ownership (``RawMarkup/trackedStartTags``).
    static let formOwnership = ElementNameTraits(rawValue: 1 << 6)

    /// The traits of the element called `name` (lower-case); none for other names, text and comments.
    static func of(_ name: String) -> ElementNameTraits {
        name.isEmpty ? [] : table[name] ?? []
    }

    private static let table: [String: ElementNameTraits] = {
        let sets: [(Set<String>, ElementNameTraits)] = [
            (ErrorTextReader.unseenElements, .unseen), (ErrorTextReader.inlineElements, .inline),
            (TextBlocks.headingElements, .heading), (["input", "button", "select", "textarea"], .control),
            (["strong", "b", "em"], .emphasis), (["a", "button"], .action),
            (RawMarkup.trackedStartTags, .formOwnership),
        ]
        var table: [String: ElementNameTraits] = [:]
        for (names, trait) in sets {
            for name in names { table[name, default: []].insert(trait) }
        }
        return table
    }()
}
