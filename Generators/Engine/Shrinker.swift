/// Shortlex order on choice sequences: shorter first, then lexicographically smaller.
///
/// This is the engine's single definition of "simpler": every accepted shrink makes the
/// best failing sequence strictly smaller in this order, so shrinking always terminates.
func isShortlexLess(_ left: [UInt64], _ right: [UInt64]) -> Bool {
    if left.count != right.count { return left.count < right.count }
    for index in left.indices where left[index] != right[index] {
        return left[index] < right[index]
    }
    return false
}

/// Shrinks a failing choice sequence with the registered shrink passes behind one gate.
///
/// ``improve(_:)`` is the gate: it decides a candidate from the ``ChoiceTree`` of known
/// outcomes when it can, replays it otherwise, and when the replay fails the property with a
/// recorded sequence that is shortlex-smaller than ``best``, adopts it. A replay may record fewer
/// choices than the candidate has: a property that read only some of its input (a program that
/// failed before its last steps) reports just those, and the rest of the candidate goes. The passes
/// (``ShrinkPass/registry``) only propose candidates. Shrinking runs rounds of the primary
/// passes; a round that improves nothing runs the fallback passes; when those find nothing
/// either, the counterexample is minimal. A budget (replays, replays without improvement,
/// time) or the stop signal can end shrinking earlier; ``stopReason`` says which.
///
/// Invariants: ``best`` always fails the property; it only ever gets shortlex-smaller;
/// ``structure`` describes ``best`` when known. Every retrying loop in a pass repeats only
/// after ``improve(_:)`` returned `true`, so no pass can loop without progress.
struct Shrinker {
    /// The outcome of one replay: how it ended, the answers it drew and their structure.
    struct Replay {
        var outcome: ChoiceTree.Outcome
        var choices: [UInt64]
        var bounds: [UInt64]
        var shapes: [IntegerShape?]
        var spans: [Span]
    }

    /// The budgets that can end shrinking before the counterexample is minimal.
    struct Limits {
        /// The most replays (``PropertyConfiguration/maxShrinkSteps``).
        var maxReplays: Int
        /// The most replays in a row without improvement (``PropertyConfiguration/shrinkStallLimit``).
        var stallLimit: Int
        /// The wall-clock budget (``PropertyConfiguration/shrinkTimeLimit``).
        var timeLimit: Duration
        /// Whether the run was stopped from outside; asked before every replay.
        var shouldStop: () -> Bool = { false }
    }

    /// The smallest failing choice sequence found so far.
    private(set) var best: [UInt64]
    /// The structure of ``best`` (bounds and spans), from the replay that produced it.
    private(set) var structure: ShrinkStructure
    /// Replays run, accepted or not (decided candidates cost none; a replay the caller could not
    /// pay for is not one).
    private(set) var replays = 0
    /// Replays that found a smaller failing sequence.
    private(set) var improvements = 0
    /// Why shrinking stopped; `nil` while it runs.
    private(set) var stopReason: ShrinkStopReason?
    /// Replays and improvements of each pass of ``ShrinkPass/registry``, by index.
    private(set) var passCounts: [(replays: Int, improvements: Int)]
    /// The registry index of the pass running now, if any.
    private var currentPass: Int?
    private var tree = ChoiceTree()
    private let replay: ([UInt64]) -> Replay?
    private let limits: Limits
    private let deadline: ContinuousClock.Instant
    private var sinceImprovement = 0
    /// Candidates the choice tree decided without a replay.
    private var decided = 0

    /// Prepares to shrink `failing`; nothing runs until ``shrink()``.
    ///
    /// `replay` runs a candidate and returns what it drew and how it ended, or `nil` when it
    /// could not run it (its caller's budget cannot pay for it): shrinking then stops with
    /// ``ShrinkStopReason/replayBudget``.
    init(failing: [UInt64], limits: Limits, replay: @escaping ([UInt64]) -> Replay?) {
        best = failing
        structure = ShrinkStructure(bounds: [], shapes: [], spans: [])
        self.limits = limits
        self.replay = replay
        deadline = ContinuousClock.now.advanced(by: limits.timeLimit)
        passCounts = Array(repeating: (0, 0), count: ShrinkPass.registry.count)
    }

    /// The statistics of every pass that ran at least one replay, in registry order.
    var passStatistics: [ShrinkPassStatistics] {
        zip(ShrinkPass.registry, passCounts).compactMap { pass, counts in
            counts.replays > 0 ? ShrinkPassStatistics(name: pass.name, replays: counts.replays, improvements: counts.improvements) : nil
        }
    }

    /// Shrinks until the counterexample is minimal or a budget stops it; returns why it stopped.
    @discardableResult
    mutating func shrink() -> ShrinkStopReason {
        learnStructure()
        let primary = ShrinkPass.registry.indices.filter { ShrinkPass.registry[$0].tier == .primary }
        let fallback = ShrinkPass.registry.indices.filter { ShrinkPass.registry[$0].tier == .fallback }
        while stopReason == nil {
            let roundStart = best
            for index in primary where stopReason == nil { run(passAt: index) }
            if stopReason != nil || best != roundStart { continue }
            for index in fallback where stopReason == nil && best == roundStart { run(passAt: index) }
            if stopReason == nil && best == roundStart { stopReason = .minimal }
            checkInvariants()
        }
        return stopReason ?? .minimal
    }

    /// Runs the registered pass at `index` once over the current best sequence.
    mutating func run(passAt index: Int) {
        currentPass = index
        defer { currentPass = nil }
        ShrinkPass.registry[index].run(&self)
    }

    /// Runs the pass called `name` once (for tests); returns whether it improved ``best``.
    @discardableResult
    mutating func run(passNamed name: String) -> Bool {
        guard let index = ShrinkPass.registry.firstIndex(where: { $0.name == name }) else { return false }
        if structure.bounds.isEmpty { learnStructure() }
        let before = best
        run(passAt: index)
        return best != before
    }

    /// Replays ``best`` once to learn its structure (the original failing case was drawn
    /// without recording it). A replay that fails with fewer choices (the property read only
    /// those) is adopted as the best.
    private mutating func learnStructure() {
        guard structure.bounds.isEmpty, let result = execute(best) else { return }
        guard result.outcome == .failed, result.choices == best || isShortlexLess(result.choices, best) else { return }
        if result.choices != best {
            best = result.choices
            improvements += 1
            sinceImprovement = 0
        }
        structure = ShrinkStructure(bounds: result.bounds, shapes: result.shapes, spans: result.spans)
    }

    /// The gate: replays `candidate` unless its outcome is known, and adopts it when it fails
    /// with a shortlex-smaller recorded sequence. Returns whether ``best`` improved.
    ///
    /// A candidate whose outcome the choice tree knows never improves: a failing sequence the
    /// tree knows was adopted when it ran, or was larger than the best of that time, and the
    /// best has only got smaller since. Decided candidates cost no replay, but every 1,024th
    /// one checks the deadline and the stop signal, so that even a pass stuck proposing known
    /// candidates ends.
    @discardableResult
    mutating func improve(_ candidate: [UInt64]) -> Bool {
        guard stopReason == nil, candidate != best else { return false }
        guard tree.outcome(of: candidate) == nil else {
            decided += 1
            if decided & 1023 == 0 {
                if limits.shouldStop() { stopReason = .cancelled } else if ContinuousClock.now >= deadline { stopReason = .deadline }
            }
            return false
        }
        guard let result = execute(candidate) else { return false }
        guard result.outcome == .failed, isShortlexLess(result.choices, best) else { return false }
        best = result.choices
        structure = ShrinkStructure(bounds: result.bounds, shapes: result.shapes, spans: result.spans)
        improvements += 1
        sinceImprovement = 0
        if let currentPass { passCounts[currentPass].improvements += 1 }
        return true
    }

    /// Replays `candidate` and records it in the choice tree, unless a budget or the stop
    /// signal says to stop, or the replay could not be paid for (then sets ``stopReason`` and
    /// returns `nil`).
    private mutating func execute(_ candidate: [UInt64]) -> Replay? {
        if stopReason != nil { return nil }
        if limits.shouldStop() {
            stopReason = .cancelled
        } else if replays >= limits.maxReplays {
            stopReason = .replayBudget
        } else if sinceImprovement >= limits.stallLimit {
            stopReason = .stallBudget
        } else if ContinuousClock.now >= deadline {
            stopReason = .deadline
        }
        if stopReason != nil { return nil }
        guard let result = replay(candidate) else {
            stopReason = .replayBudget
            return nil
        }
        replays += 1
        sinceImprovement += 1
        if let currentPass { passCounts[currentPass].replays += 1 }
        tree.record(result.choices, bounds: result.bounds, outcome: result.outcome)
        return result
    }

    /// The bound of the choice at `index` in ``best`` (`UInt64.max` when unknown).
    func bound(at index: Int) -> UInt64 {
        index < structure.bounds.count ? structure.bounds[index] : .max
    }

    /// The integer shape of the choice at `index`, when it encodes an integer.
    func shape(at index: Int) -> IntegerShape? {
        index < structure.shapes.count ? structure.shapes[index] : nil
    }

    /// The choice at `index` of ``best`` as a side and distance from its generator's target:
    /// integers decode through their shape; any other choice is its own distance, above.
    func position(at index: Int) -> (isBelow: Bool, distance: UInt64) {
        guard index < best.count else { return (false, 0) }
        return shape(at: index)?.position(ofIndex: best[index]) ?? (false, best[index])
    }

    /// The choice that encodes the value at `distance` on the given side at `index`, with the
    /// shape and bound that position has in ``best``; `nil` when no value of the range is there.
    func choice(at index: Int, isBelow: Bool, distance: UInt64) -> UInt64? {
        if let shape = shape(at: index) { return shape.index(isBelow: isBelow, distance: distance) }
        if isBelow { return distance == 0 ? 0 : nil }
        return distance <= bound(at: index) ? distance : nil
    }

    /// Whether the choice at `index` is a number with more than two values that is not yet zero:
    /// the choices the value passes work on (Booleans only ever go to zero).
    func isLowerableNumber(at index: Int) -> Bool {
        index < best.count && best[index] > 0 && bound(at: index) > 1
    }

    /// Replays `candidate` if there is one (see ``improve(_:)``); `false` for `nil`.
    @discardableResult
    mutating func improve(_ candidate: [UInt64]?) -> Bool {
        guard let candidate else { return false }
        return improve(candidate)
    }

    /// ``best`` with the choices at `indices` set to `value`.
    func replacing(_ indices: some Sequence<Int>, with value: UInt64) -> [UInt64] {
        var candidate = best
        for index in indices where index < candidate.count { candidate[index] = value }
        return candidate
    }

    /// Whether shrinking should go on (no budget or stop signal has ended it).
    var isRunning: Bool { stopReason == nil }

    /// Debug-only consistency checks: the best sequence is known to fail.
    private func checkInvariants() {
        assert(tree.outcome(of: best) != .passed && tree.outcome(of: best) != .discarded,
               "the shrinker's best sequence is recorded as not failing")
        assert(structure.bounds.isEmpty || structure.bounds.count == best.count,
               "the shrinker's structure does not describe its best sequence")
    }
}

/// The structure of a choice sequence as its last replay drew it: every choice's bound and
/// integer shape, and the spans sorted outermost first with each span's enclosing span.
struct ShrinkStructure {
    /// The bound of each choice.
    let bounds: [UInt64]
    /// The integer shape of each choice that encodes an integer.
    let shapes: [IntegerShape?]
    /// The spans by start, outer spans before the spans they contain.
    let spans: [Span]
    /// The index in ``spans`` of each span's innermost enclosing span (`-1`: none).
    let parents: [Int]
    /// The indices of the "another element?" choices of collections.
    let continuations: Set<Int>

    init(bounds: [UInt64], shapes: [IntegerShape?], spans recorded: [Span]) {
        self.bounds = bounds
        self.shapes = shapes
        // Spans are recorded when they end, so an enclosing span comes after its contents:
        // among spans with the same extent, the one recorded later is the outer one.
        let order = recorded.indices.sorted { a, b in
            let x = recorded[a], y = recorded[b]
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end > y.end }
            return a > b
        }
        spans = order.map { recorded[$0] }
        var parents = Array(repeating: -1, count: spans.count)
        var open: [Int] = []
        for (index, span) in spans.enumerated() {
            while let last = open.last, !(spans[last].start <= span.start && span.end <= spans[last].end) {
                open.removeLast()
            }
            parents[index] = open.last ?? -1
            open.append(index)
        }
        self.parents = parents
        continuations = Set(spans.lazy.filter { $0.kind == .element && $0.start < $0.contentStart }.map(\.start))
    }


    /// The positions of the element spans of the collection at `position`, in order.
    func elements(ofCollectionAt position: Int) -> [Int] {
        var result: [Int] = []
        var index = position + 1
        while index < spans.count && spans[index].start < spans[position].end {
            if parents[index] == position && spans[index].kind == .element { result.append(index) }
            index += 1
        }
        return result
    }

    /// The positions of the spans inside the span at `position`, outermost first.
    func descendants(of position: Int) -> Range<Int> {
        var end = position + 1
        while end < spans.count && spans[end].start < spans[position].end { end += 1 }
        return (position + 1)..<end
    }
}

