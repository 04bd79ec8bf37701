/// Shortlex order on choice sequences: shorter first, then lexicographically smaller.
///
/// This is the engine's single definition of "simpler": every accepted shrink makes the
/// best failing sequence strictly smaller in this order, so shrinking always terminates.
@usableFromInline
func _isShortlexLess(_ left: [UInt64], _ right: [UInt64]) -> Bool {
    if left.count != right.count { return left.count < right.count }
    for index in left.indices where left[index] != right[index] {
        return left[index] < right[index]
    }
    return false
}

/// Shrinks a failing choice sequence with a fixed list of passes behind one caching gate.
///
/// ``consider(_:)`` is the gate: it replays a candidate (unless its outcome is cached),
/// and when the replay fails the property with a recorded sequence that is shortlex-smaller
/// than ``best``, adopts it. The passes (delete chunks, zero blocks, minimise each choice,
/// lower-and-delete, sort chunks, redistribute between neighbours) only propose
/// candidates. Shrinking stops when a whole round improves nothing, or when the attempt
/// budget, the stall budget (attempts since the last improvement) or the deadline runs out.
struct _Shrinker {
    /// Replays a candidate; returns the choices actually drawn and whether the property failed.
    typealias Replay = ([UInt64]) -> (recorded: [UInt64], spans: [Int], failed: Bool)

    private(set) var best: [UInt64]
    /// Element spans of `best` (start, content start and end indices, flattened), from its last replay.
    private var bestSpans: [Int] = []
    private(set) var improvements = 0
    private(set) var attempts = 0
    private(set) var stopped = false
    private let replay: Replay
    private let maxAttempts: Int
    private let stallLimit: Int
    private let deadline: ContinuousClock.Instant
    private var sinceImprovement = 0
    private var cacheHits = 0
    private var cache: [_ChoiceKey: Bool] = [:]
    private var cachedChoices = 0

    init(failing: [UInt64], maxAttempts: Int, stallLimit: Int, timeLimit: Duration, replay: @escaping Replay) {
        best = failing
        self.replay = replay
        self.maxAttempts = maxAttempts
        self.stallLimit = stallLimit
        deadline = ContinuousClock.now.advanced(by: timeLimit)
        if maxAttempts <= 0 { stopped = true }
    }

    /// Runs rounds of passes until a round makes no progress or a budget runs out.
    mutating func shrink() {
        if !stopped {
            let outcome = replay(best)
            attempts += 1
            if outcome.failed, outcome.recorded == best { bestSpans = outcome.spans }
        }
        while !stopped {
            let before = best
            deleteSpans()
            zeroSpanContents()
            if best != before { continue }
            deleteChunks()
            zeroBlocks()
            minimizeChoices()
            sortChunks()
            redistribute()
            if best == before {
                lowerAndDelete()
                if best == before { break }
            }
            _checkInvariants()
        }
    }

    /// Replays `candidate` (or reads its cached outcome); returns whether the property failed.
    @discardableResult
    mutating func consider(_ candidate: [UInt64]) -> Bool {
        if candidate == best { return true }
        if let known = cache[_ChoiceKey(candidate)] {
            // Cache hits are cheap but not free: they count toward the deadline too.
            cacheHits += 1
            if cacheHits & 1023 == 0 && ContinuousClock.now >= deadline { stopped = true }
            return known
        }
        if stopped { return false }
        attempts += 1
        sinceImprovement += 1
        let outcome = replay(candidate)
        remember(candidate, outcome.failed)
        if outcome.failed {
            remember(outcome.recorded, true)
            if _isShortlexLess(outcome.recorded, best) {
                best = outcome.recorded
                bestSpans = outcome.spans
                improvements += 1
                sinceImprovement = 0
            }
        }
        if attempts >= maxAttempts || sinceImprovement >= stallLimit
            || (attempts & 15 == 0 && ContinuousClock.now >= deadline)
        {
            stopped = true
        }
        return outcome.failed
    }

    private mutating func remember(_ choices: [UInt64], _ failed: Bool) {
        if cachedChoices > 4_000_000 {
            cache.removeAll(keepingCapacity: true)
            cachedChoices = 0
        }
        cachedChoices += choices.count + 1
        cache[_ChoiceKey(choices)] = failed
    }

    /// Tries `best` with the choice at `index` set to `value`.
    private mutating func replace(_ index: Int, with value: UInt64) -> Bool {
        guard index < best.count else { return false }
        var candidate = best
        candidate[index] = value
        return consider(candidate)
    }

    /// Deletes whole collection elements (their "another?" choice and their draws), last first.
    private mutating func deleteSpans() {
        var triple = bestSpans.count / 3 - 1
        while triple >= 0 && !stopped {
            if 3 * triple + 2 < bestSpans.count {
                let start = bestSpans[3 * triple], contentStart = bestSpans[3 * triple + 1]
                var end = bestSpans[3 * triple + 2]
                // A mandatory element (below the minimum count) has no "another?" choice: removing
                // it alone would make the next element's "another?" its first draw. Remove that
                // choice with it, so the next element slides into its place unchanged.
                if start == contentStart, 3 * triple + 5 < bestSpans.count, bestSpans[3 * triple + 3] == end {
                    end = bestSpans[3 * triple + 4]
                }
                if start < end && end <= best.count {
                    var candidate = best
                    candidate.removeSubrange(start..<end)
                    consider(candidate)
                }
            }
            triple -= 1
        }
    }

    /// Zeroes the draws of many collection elements at once (all, then halves, quarters, ...
    /// down to single elements), keeping their "another?" choices: one replay simplifies every
    /// character of a long string when none of them matters.
    private mutating func zeroSpanContents() {
        var groupSize = Swift.max(1, bestSpans.count / 3)
        while !stopped {
            var first = 0
            while first < bestSpans.count / 3 && !stopped {
                var candidate = best
                var changed = false
                for triple in first..<Swift.min(first + groupSize, bestSpans.count / 3) {
                    let contentStart = bestSpans[3 * triple + 1], end = Swift.min(bestSpans[3 * triple + 2], best.count)
                    if contentStart < end {
                        for index in contentStart..<end where candidate[index] != 0 {
                            candidate[index] = 0
                            changed = true
                        }
                    }
                }
                if changed { consider(candidate) }
                first += groupSize
            }
            if groupSize == 1 { break }
            groupSize = (groupSize + 1) / 2
        }
    }

    /// Deletes chunks of 8, 4, 2 and 1 choices, from the end toward the start; when a
    /// deletion alone does not fail, also tries lowering the choice just before the chunk
    /// (a length or "another element?" choice).
    private mutating func deleteChunks() {
        for size in [8, 4, 2, 1] {
            var start = best.count - size
            while start >= 0 && !stopped {
                if start + size <= best.count {
                    var candidate = best
                    candidate.removeSubrange(start..<(start + size))
                    if !consider(candidate), start > 0, candidate[start - 1] > 0 {
                        candidate[start - 1] -= 1
                        // Retry this position only when `best` really improved: a failing
                        // candidate that is not smaller (a cached hit) would repeat forever.
                        let before = best
                        if consider(candidate), best != before { start += 1 }
                    }
                }
                start -= 1
            }
        }
    }

    /// Sets blocks of 8, 4, 2 and 1 choices to zero.
    private mutating func zeroBlocks() {
        for size in [8, 4, 2] {
            var start = best.count - size
            while start >= 0 && !stopped {
                if start + size <= best.count, best[start..<(start + size)].contains(where: { $0 != 0 }) {
                    var candidate = best
                    for index in start..<(start + size) { candidate[index] = 0 }
                    consider(candidate)
                }
                start -= 1
            }
        }
    }

    /// Binary-searches every choice down toward zero, from the last to the first.
    private mutating func minimizeChoices() {
        var index = best.count - 1
        while index >= 0 && !stopped {
            minimize(at: index)
            index -= 1
        }
    }

    private mutating func minimize(at index: Int) {
        guard index < best.count, best[index] > 0 else { return }
        if replace(index, with: 0) { return }
        guard index < best.count, best[index] > 1 else { return }
        if replace(index, with: 1) { return }
        var low: UInt64 = 1
        while index < best.count, low + 1 < best[index], !stopped {
            let high = best[index]
            let middle = low + (high - low) / 2
            if !replace(index, with: middle) { low = middle }
        }
    }

    /// Sorts chunks of 8 down to 2 neighbouring choices in ascending order.
    private mutating func sortChunks() {
        for size in stride(from: 8, through: 2, by: -1) {
            var start = best.count - size
            while start >= 0 && !stopped {
                if start + size <= best.count {
                    let chunk = best[start..<(start + size)]
                    let sorted = chunk.sorted()
                    if !sorted.elementsEqual(chunk) {
                        var candidate = best
                        candidate.replaceSubrange(start..<(start + size), with: sorted)
                        consider(candidate)
                    }
                }
                start -= 1
            }
        }
    }

    /// Moves value from a choice to one 1 to 4 places later (lowering the earlier one),
    /// which keeps sums while making the sequence lexicographically smaller.
    private mutating func redistribute() {
        for gap in 1...4 {
            var first = 0
            while first + gap < best.count && !stopped {
                let second = first + gap
                let amount = best[first]
                if amount > 0 && best[second] <= UInt64.max - amount {
                    if !moveValue(from: first, to: second, amount: amount) {
                        var low: UInt64 = 0, high = amount
                        while low + 1 < high && !stopped {
                            let middle = low + (high - low) / 2
                            if moveValue(from: first, to: second, amount: middle) {
                                low = middle
                                break
                            } else {
                                high = middle
                            }
                        }
                    }
                }
                first += 1
            }
        }
    }

    private mutating func moveValue(from first: Int, to second: Int, amount: UInt64) -> Bool {
        guard second < best.count, best[first] >= amount, best[second] <= UInt64.max - amount else { return false }
        var candidate = best
        candidate[first] -= amount
        candidate[second] += amount
        return consider(candidate)
    }

    /// Lowers a small choice by one while deleting 1 to 4 choices shortly after it: the move
    /// that shortens a list whose length was drawn first (`flatMap` on a count).
    private mutating func lowerAndDelete() {
        var index = 0
        while index < best.count && !stopped {
            if (1...64).contains(best[index]) {
                search: for size in 1...4 {
                    var start = index + 1
                    while start + size <= Swift.min(best.count, index + 1 + 8 + size) && !stopped {
                        var candidate = best
                        candidate[index] -= 1
                        candidate.removeSubrange(start..<(start + size))
                        if consider(candidate) { break search }
                        start += 1
                    }
                }
            }
            index += 1
        }
    }

    /// Debug-only consistency checks: the best sequence is known to fail.
    private func _checkInvariants() {
        assert(cache[_ChoiceKey(best)] != false, "the shrinker's best sequence is cached as passing")
    }
}

/// A choice sequence as a dictionary key, hashed once with a fast multiply-xorshift mix.
///
/// The standard `[UInt64]` hash runs SipHash over every element on every lookup, which
/// dominated shrinking time on long sequences; this computes one 64-bit digest up front.
struct _ChoiceKey: Hashable {
    let choices: [UInt64]
    let digest: UInt64

    init(_ choices: [UInt64]) {
        self.choices = choices
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(choices.count)
        for choice in choices {
            hash = (hash ^ choice) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
        }
        digest = hash
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    static func == (left: _ChoiceKey, right: _ChoiceKey) -> Bool {
        left.digest == right.digest && left.choices == right.choices
    }
}
