/// Whether a person sees an element when the page has loaded, from the signals a page carries without running its
/// scripts: the `hidden` attribute, `aria-hidden="true"`, a hidden input, an inline style that hides
/// (``HidingDeclarations``), a rule of the page's own `<style>` that hides it (``PageStyleSheet``, marked on the node
/// when the page is read), the utility classes of the common CSS frameworks that hide, and tooltip or popover
/// classes (shown on hover only). An element inside a hidden one is hidden too: readers skip hidden subtrees.
enum Visibility {
    /// The class names the common CSS frameworks hide with: Bootstrap (`d-none`, `invisible`, `visually-hidden`,
    /// `sr-only`, and its older `hidden`, `hide`), Tailwind (`hidden`, `invisible`, `sr-only`), Bulma
    /// (`is-hidden`), Foundation (`hide`, `invisible`, `show-for-sr`), AngularJS (`ng-hide`).
    static let hidingClasses: Set<String> = [
        "hidden", "hide", "d-none", "invisible", "visually-hidden", "sr-only", "is-hidden", "ng-hide",
        "show-for-sr",
    ]

    /// Whether `node` itself is hidden (its ancestors are judged on their own). Worked out once per node.
    static func isHidden(_ node: DOMNode) -> Bool {
        if let verdict = node.hiddenVerdict { return verdict }
        let verdict = judgesHidden(node)
        node.hiddenVerdict = verdict
        return verdict
    }

    /// ``isHidden(_:)`` worked out from the node's attributes and the page's style rules.
    private static func judgesHidden(_ node: DOMNode) -> Bool {
        if node.isHiddenByPageStyle { return true }
        // One pass over the attributes, comparing bytes where it can: this runs for every element of every page.
        var namesTooltip = false
        for (name, value) in node.attributes {
            switch name {
            case "hidden": return true
            case "aria-hidden": if ASCIIText.equalsIgnoringCase(value, "true") { return true }
            case "type": if node.name == "input" && ASCIIText.equalsIgnoringCase(value, "hidden") { return true }
            case "style":
                if HidingDeclarations.mayHide(value), HidingDeclarations(value).verdict == true { return true }
            case "class":
                // What the classes say, worked out once per page for each `class` attribute (``NameSignals``).
                let signals = node.nameSignals
                if signals.contains(.hidingClass) { return true }
                namesTooltip = signals.contains(.tooltipClass)
            default: break
            }
        }
        return namesTooltip
    }

    /// The words of a class that make it a tooltip's or a popover's (``NameSignals/tooltipClass``).
    static let tooltipWords: Set<String> = ["tooltip", "popover"]

    /// Whether `node` or one of its ancestors is hidden.
    static func isHiddenWithAncestors(_ node: DOMNode) -> Bool {
        var current: DOMNode? = node
        while let element = current, element.kind == .element, element.name != "#document" {
            if isHidden(element) { return true }
            current = element.parent
        }
        return false
    }

    /// Whether a person can neither see nor reach a form control: hidden (itself or by an ancestor), or taken out of
    /// the tab order (`tabindex="-1"`) as the decoy fields meant for password managers and bots are.
    static func isConcealedControl(_ node: DOMNode) -> Bool {
        if node.attribute("tabindex")?.trimmingASCIIWhitespace() == "-1" { return true }
        return isHiddenWithAncestors(node)
    }

    /// Marks every element the page's own `<style>` rules hide (read once per page, before anything asks).
    static func applyPageStyles(to elements: [DOMNode]) {
        let styles = elements.filter { $0.name == "style" && !$0.hasAncestor(named: "noscript") }.map(\.textContent)
        guard !styles.isEmpty else { return }
        let sheet = PageStyleSheet(styles: styles)
        guard !sheet.isEmpty else { return }
        for element in elements where sheet.hides(element) { element.isHiddenByPageStyle = true }
    }
}
