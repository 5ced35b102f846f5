/// "Did you mean …?" for a mistyped command or option: the closest known word by edit distance.
public enum Suggestions {
    /// The candidate closest to `word`, when it is close enough to be a typo: at most one edit for words of up to
    /// four letters, two for longer ones (an edit is an insertion, deletion, substitution or a swap of two
    /// neighbouring letters, so `itmes` is one edit from `items`). Ties go to the first candidate.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `" Did you mean 'items'?"`, or an empty string when nothing is close.
    public static func didYouMean(_ word: String, in candidates: [String], prefix: String = "") -> String {
        guard let match = closest(to: word, in: candidates) else { return "" }
        return " Did you mean '\(prefix)\(match)'?"
    }

    /// The optimal-string-alignment distance between `a` and `b` (Levenshtein plus swaps of neighbours).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }

    /// The names among `candidates` nearest to `name` by either spelling (an internal name and a title, say): those
    /// within a typo or two, or when none is that close the three nearest, best first.
    public static func nearest(to name: String, among candidates: [(name: String, title: String)]) -> [String] {
        let wanted = name.lowercased()
        let scored = candidates.map { candidate in
            (
                candidate.name,
                min(
                    editDistance(wanted, candidate.name.lowercased()),
                    editDistance(wanted, candidate.title.lowercased()))
            )
        }
        var seen: Set<String> = []
        let ranked = scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.filter { seen.insert($0.0).inserted }
        // Names within a typo or two of the one given; when none is that close, the three nearest.
        let close = ranked.filter { $0.1 <= max(2, wanted.count / 3) }
        return (close.isEmpty ? ranked : close).prefix(3).map(\.0)
    }
}
