extension JSONValue {
    /// Parses UTF-8 JSON text like ``parse(bytes:)``, but hands the elements of chosen arrays to `element` one by
    /// one, as each is parsed, instead of keeping them in the tree: a big collection is never held whole.
    ///
    /// Each path names object members from the root, e.g. `["d", "results"]`. At every level only the *first*
    /// member with the name counts (the one ``member(_:)`` returns), and only when its value is an array; that
    /// array is left empty (`[]`) in the returned tree. Paths do not go through arrays. Elements are passed in
    /// order with the index of their path in `paths`. Syntax errors are the same, at the same offsets, as for
    /// ``parse(bytes:)``; elements before the error have already been handed over.
    ///
    /// - Returns: the document without the streamed elements, and for each path whether its array was found
    ///   (and streamed).
    public static func parse(
        bytes: [UInt8], streaming paths: [[String]], element: (_ path: Int, _ value: JSONValue) -> Void
    ) throws(JSONSyntaxError) -> (root: JSONValue, streamed: [Bool]) {
        try withoutActuallyEscaping(element) { (element) throws(JSONSyntaxError) in
            var parser = JSONParser(bytes: bytes, streaming: paths)
            parser.onElement = element
            let root = try parser.parseStreamingDocument()
            return (root, parser.streamed)
        }
    }
}

extension JSONValue {
    /// Parses like ``parse(bytes:streaming:element:)``, but hands over at most `limit` elements of each streamed
    /// array: the ones after are skipped over as ``parse(bytes:skipping:)`` does (nothing built, nothing in them
    /// checked beyond string boundaries and nesting) and only counted. For a reader that shows a page of a
    /// collection whatever the sender put into it: its time and memory go by `limit`, not by the document.
    ///
    /// - Returns: the document without the streamed elements, for each path whether its array was found, and how
    ///   many of its elements were dropped.
    public static func parse(
        bytes: [UInt8], streaming paths: [[String]], keepingAtMost limit: Int,
        element: (_ path: Int, _ value: JSONValue) -> Void
    ) throws(JSONSyntaxError) -> (root: JSONValue, streamed: [Bool], dropped: [Int]) {
        try withoutActuallyEscaping(element) { (element) throws(JSONSyntaxError) in
            var parser = JSONParser(bytes: bytes, streaming: paths)
            parser.onElement = element
            parser.streamLimit = max(0, limit)
            let root = try parser.parseStreamingDocument()
            return (root, parser.streamed, parser.dropped)
        }
    }
}

extension JSONValue {
    /// Parses the document around chosen arrays without parsing those arrays: their elements are skipped over
    /// (string boundaries and nesting followed, nothing built or otherwise checked) and the arrays come back empty.
    ///
    /// For a quick look at what sits beside a big collection, such as a page's next link, before (or instead of)
    /// the full parse; paths are as for ``parse(bytes:streaming:element:)``. A document the full parse rejects may
    /// pass here.
    ///
    /// - Returns: the document without the skipped elements, and for each path whether its array was found.
    public static func parse(
        bytes: [UInt8], skipping paths: [[String]]
    ) throws(JSONSyntaxError) -> (root: JSONValue, skipped: [Bool]) {
        var parser = JSONParser(bytes: bytes, streaming: paths)
        parser.skipsStreamedElements = true
        let root = try parser.parseStreamingDocument()
        return (root, parser.streamed)
    }
}
