/// At most `limit` items, and how many were left out: the one way a list is cut short for people
/// (page lists, broken targets, rows of the HTML report, console lines, damaged objects). Each
/// place keeps its own words for the rest ("and 4 more", "… and 12 more in report.json"), which
/// reports and their golden files fix; the counting is here.
package struct Abridged<Element> {
    package let shown: [Element]
    /// How many items are not in `shown`.
    package let hidden: Int

    package init<C: Collection>(_ items: C, limit: Int) where C.Element == Element {
        shown = Array(items.prefix(max(limit, 0)))
        hidden = items.count - shown.count
    }

    /// `a, b, c and 4 more` (`more` given the hidden count, used only when some are hidden).
    package func joined(
        separator: String = ", ", more: (Int) -> String = { " and \($0) more" }, text: (Element) -> String
    ) -> String {
        shown.map(text).joined(separator: separator) + (hidden > 0 ? more(hidden) : "")
    }

    /// `suffix(hidden)` when some are hidden, else "".
    package func tail(_ suffix: (Int) -> String) -> String { hidden > 0 ? suffix(hidden) : "" }
}
