/// One named shrink pass: a way of proposing smaller candidates for the failing choice sequence.
///
/// The ``registry`` lists every pass in the order a round runs them. A pass only proposes
/// candidates through ``Shrinker/improve(_:)``, the gate that decides or replays them and
/// keeps the smallest failing one; so a pass can never make the counterexample worse, and its
/// replays and improvements are counted under its name in the failure report.
///
/// Each pass's ``summary`` says what it turns into what; the engine's tests check each claim
/// on a pass of its own. Invariant: a pass repeats work at a position only after an
/// improvement (which makes the best sequence strictly shortlex-smaller), so every pass ends.
struct ShrinkPass: Sendable {
    /// When a pass runs.
    enum Tier: Sendable {
        /// Every round.
        case primary
        /// Only after a round of primary passes improved nothing (they cost many replays).
        case fallback
    }

    /// The pass's name in failure reports.
    let name: String
    /// What the pass turns into what.
    let summary: String
    /// When the pass runs.
    let tier: Tier
    /// Runs the pass once over the shrinker's current best sequence.
    let run: @Sendable (inout Shrinker) -> Void

    /// Every shrink pass, in the order a round runs them: structure first (fewer and smaller
    /// nodes make every later pass cheaper), then values, then normalisation.
    static let registry: [ShrinkPass] = [
        ShrinkPass(
            name: "zeroCollections",
            summary: "turns \"xQ3z\" into \"aaaa\" in one replay: sets the draws of all elements of a collection to their "
                + "simplest at once",
            tier: .primary) { $0.zeroCollections() },
        ShrinkPass(
            name: "deleteElements",
            summary: "turns [5, 7, 3] into [7] when only the 7 matters: deletes runs of collection elements, "
                + "growing the run exponentially",
            tier: .primary) { $0.deleteElements() },
        ShrinkPass(
            name: "joinElements",
            summary: "turns [[0, 0], [0]] into [[0, 0, 0]]: merges neighbouring elements that are collections",
            tier: .primary) { $0.joinElements() },
        ShrinkPass(
            name: "passToDescendant",
            summary: "turns (a + (b / 0)) into (b / 0): replaces a node by a node of the same kind inside it",
            tier: .primary) { $0.passToDescendant() },
        ShrinkPass(
            name: "zeroSpans",
            summary: "turns [\"xq\", \"zz\"] into [\"aa\", \"aa\"]: sets whole elements and picks to their simplest draws at once",
            tier: .primary) { $0.zeroSpans() },
        ShrinkPass(
            name: "lowerDuplicates",
            summary: "turns (2147483000, 2147483000) into (10, 10): lowers equal choices together",
            tier: .primary) { $0.lowerDuplicates() },
        ShrinkPass(
            name: "minimizeChoices",
            summary: "turns 2147483000 into 1234 and -5 into 5: lowers each choice to 0, or its distance from the "
                + "target by galloping from both ends and bisecting, then tries the other sign",
            tier: .primary) { $0.minimizeChoices() },
        ShrinkPass(
            name: "lowerTogether",
            summary: "turns (2147483000, 2147482996) into (10, 6): lowers nearby choices by the same amount",
            tier: .primary) { $0.lowerTogether() },
        ShrinkPass(
            name: "shiftTogether",
            summary: "turns (-1, (-1), (0)) into (0, (0), (1)): moves all integers by the amount that takes the first "
                + "one to its target",
            tier: .primary) { $0.shiftTogether() },
        ShrinkPass(
            name: "redistribute",
            summary: "turns (5, 5) into (0, 10) where only the sum matters: moves value from a number to a later "
                + "one of the same range, wrapping past a fixed-width range's end",
            tier: .primary) { $0.redistribute() },
        ShrinkPass(
            name: "sortSpans",
            summary: "turns [2, 0, 1] into [0, 1, 2] and (x, big, small) into (x, small, big) where order does not "
                + "matter: sorts a collection's elements and swaps sibling subtrees",
            tier: .primary) { $0.sortSpans() },
        ShrinkPass(
            name: "deleteChunks",
            summary: "turns [3, 0, 9] into [9] for generators without spans: deletes chunks of 1 to 8 choices, "
                + "lowering the choice before a chunk when that keeps the rest aligned",
            tier: .fallback) { $0.deleteChunks() },
        ShrinkPass(
            name: "deleteAndLower",
            summary: "turns [0, 2, 1] into [1, 0] where values point at positions: deletes elements while lowering "
                + "the numbers in the others by as many",
            tier: .fallback) { $0.deleteAndLower() },
        ShrinkPass(
            name: "lowerAndDelete",
            summary: "turns a count of 3 and three values into a count of 1 and one value: lowers a small choice "
                + "while deleting choices after it",
            tier: .fallback) { $0.lowerAndDelete() },
        ShrinkPass(
            name: "zeroChunks",
            summary: "turns [4, 9, 1] into [0, 0, 0] for generators without spans: zeroes blocks of 8 to 2 choices",
            tier: .fallback) { $0.zeroChunks() },
        ShrinkPass(
            name: "sortChoices",
            summary: "turns [9, 3] into [3, 9] where order does not matter: sorts runs of 2 to 8 neighbouring choices",
            tier: .fallback) { $0.sortChoices() },
    ]
}
