import PetSpotPropertyEngine

/// How many announcements with a photo the list-depth contract makes visible to one list query
/// (`run --list-depth N`): a count given, or one drawn from the run's seed.
package enum ListDepth: Sendable, Equatable {
    /// A count drawn from the run's seed in ``drawnRange``.
    case drawn
    /// Exactly this many; 0 skips the contract.
    case given(Int)

    /// The counts drawn: past 100, the largest of the page sizes common in the field (20, 25, 50,
    /// 100), so that each of them shows in every run, and up to 40 more, so that a cap between
    /// 100 and 140 shows with some seeds; at 3 requests each (a create, an upload and a delete),
    /// a default run's budget keeps room for the groups after it.
    package static let drawnRange = 101...140

    /// The count of a run with `seed`.
    package func count(seed: UInt64) -> Int {
        switch self {
        case .given(let count):
            return count
        case .drawn:
            var random = SplitMix64(seed: seed ^ 0x4C49_5354_4445_5054)
            return Self.drawnRange.lowerBound + Int(random.next() % UInt64(Self.drawnRange.count))
        }
    }
}
