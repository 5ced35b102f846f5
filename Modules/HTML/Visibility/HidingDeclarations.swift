/// What a block of CSS declarations (a `style` attribute, or a rule's body) says of whether its element is seen:
/// `display:none`, `visibility:hidden`, no size at all, clipped to nothing, or placed far off the screen (the
/// common ways pages keep an error template or a decoy field out of sight). Later declarations win, as in CSS.
struct HidingDeclarations {
    /// True: hidden; false: shown again (`display:block`, `visibility:visible`); nil: says nothing of it.
    private(set) var verdict: Bool?

    init(_ text: String) {
        guard !text.isEmpty else { return }
        var width: Double?
        var height: Double?
        var positioned = false
        var offScreen = false
        var pushedOut = false
        var display: Bool?
        var visibility: Bool?
        var clipped = false
        var overflowHidden = false
        for (property, value) in StyleDeclarations.pairs(of: text) {
            switch property {
            case "display": display = value == "none" ? true : (value.isEmpty ? display : false)
            case "visibility": visibility = value == "hidden" || value == "collapse"
            case "width", "max-width": width = Self.length(value) ?? width
            case "height", "max-height": height = Self.length(value) ?? height
            case "position": positioned = value == "absolute" || value == "fixed"
            case "left", "top", "right":
                if let offset = Self.length(value), offset <= -500 { offScreen = true }
            case "margin-left", "margin-top", "text-indent":
                if let offset = Self.length(value), offset <= -500 { pushedOut = true }
            case "overflow", "overflow-y": overflowHidden = value == "hidden" || overflowHidden
            case "clip": clipped = value.hasPrefix("rect(0") && !value.contains("auto")
            case "clip-path": clipped = value == "inset(50%)" || value == "inset(100%)"
            default: break
            }
        }
        if display == true || visibility == true { verdict = true; return }
        if (width == 0 && height == 0) || (height == 0 && overflowHidden) || (positioned && (offScreen || clipped))
            || pushedOut
        {
            verdict = true
            return
        }
        if display == false || visibility == false { verdict = false }
    }

    /// Whether `text` can say "hidden" at all, by a cheap look at its bytes: every hiding declaration holds `none`,
    /// `hidden`, `collapse` or `clip`, a zero width or height, or a negative value. Most style attributes hold none of
    /// them and are not parsed.
    static func mayHide(_ text: String) -> Bool {
        ASCIIText.containsIgnoringCase(text, "none") || ASCIIText.containsIgnoringCase(text, "hidden")
            || ASCIIText.containsIgnoringCase(text, "collapse") || ASCIIText.containsIgnoringCase(text, "clip")
            || ASCIIText.contains(text, ":-") || ASCIIText.contains(text, ": -")
            || (ASCIIText.contains(text, "0")
                && (ASCIIText.containsIgnoringCase(text, "width") || ASCIIText.containsIgnoringCase(text, "height")))
    }

    /// A CSS length in pixels, roughly (em as 16 px), or nil for anything else (`auto`, percentages, `calc`; `rem`,
    /// read as `em` with an `r` left over).
    private static func length(_ value: String) -> Double? {
        func scaled(_ unit: String, _ factor: Double) -> Double? {
            Double(value.dropLast(unit.count)).map { $0 * factor }
        }
        if value.hasSuffix("px") { return scaled("px", 1.0) }
        if value.hasSuffix("em") { return scaled("em", 16.0) }
        if value.hasSuffix("pt") { return scaled("pt", 1.33) }
        return value == "0" ? 0 : nil
    }
}
