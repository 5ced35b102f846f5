import SPSim

/// The soak's one source of chance, spsim's SplitMix64 from the seed, so a run can be repeated exactly.
struct SoakRandom {
    private var generator: SeededRandom

    init(seed: UInt64) { generator = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A number in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int { generator.next(below: bound) }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty collection.
    mutating func pick<C: Collection>(_ items: C) -> C.Element {
        items[items.index(items.startIndex, offsetBy: below(items.count))]
    }
}
