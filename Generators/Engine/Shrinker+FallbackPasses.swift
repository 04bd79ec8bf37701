// The fallback shrink passes: they know nothing of spans and try many candidates, so they run
// only when a round of the primary passes found nothing. They cover hand-written generators
// that draw raw choices, and dependencies that no span shows (a count drawn before a list).

extension Shrinker {
    /// Deletes chunks of 8, 4, 2 and 1 choices, from the end toward the start; when a deletion
    /// alone does not fail, also tries lowering the choice just before the chunk (a length drawn
    /// before the values it counts), and after such an improvement tries the same place again.
    /// A collection's "another element?" choice is not lowered: that would cut the collection
    /// short, which the element passes already tried.
    mutating func deleteChunks() {
        for size in [8, 4, 2, 1] {
            var start = best.count - size
            while start >= 0 && isRunning {
                if start + size <= best.count {
                    var candidate = best
                    candidate.removeSubrange(start..<(start + size))
                    if !improve(candidate), start > 0, candidate[start - 1] > 0,
                       !structure.continuations.contains(start - 1) {
                        candidate[start - 1] -= 1
                        // Retry this position only after a real improvement.
                        if improve(candidate) { start += 1 }
                    }
                }
                start -= 1
            }
        }
    }

    /// Deletes a run of elements from a collection while lowering every number in the remaining
    /// elements by the run's length: where values point at positions in the collection (indices,
    /// offsets), deleting one element moves all the others down with it, so `[0, 2, 1]` becomes
    /// `[1, 0]`. At each element, from the first, the run grows exponentially while that fails.
    mutating func deleteAndLower() {
        var position = 0
        while position < structure.spans.count && isRunning {
            defer { position += 1 }
            guard structure.spans[position].kind == .collection else { continue }
            var first = 0
            while isRunning {
                let elements = structure.elements(ofCollectionAt: position)
                guard first < elements.count, elements.allSatisfy({ structure.spans[$0].start < structure.spans[$0].contentStart })
                else { break }
                let base = best, baseStructure = structure
                let deleted = findLargest(upTo: UInt64(elements.count - first)) { shrinker, count in
                    shrinker.improve(shrinker.deletingAndLowering(
                        elements[first..<(first + Int(count))], of: elements, in: baseStructure, from: base, by: count))
                }
                if deleted == 0 { first += 1 }
            }
        }
    }

    /// `base` without the element spans at `run`, every number in the other `elements` lowered by
    /// `amount` (distance from its target); `nil` when one of them is closer to its target than that.
    private func deletingAndLowering(
        _ run: ArraySlice<Int>, of elements: [Int], in structure: ShrinkStructure, from base: [UInt64], by amount: UInt64
    ) -> [UInt64]? {
        var candidate = base
        var lowered = false
        for element in elements where !run.contains(element) {
            let span = structure.spans[element]
            for index in span.contentStart..<Swift.min(span.end, base.count) where isLowerableNumber(at: index) {
                let (isBelow, distance) = position(at: index)
                guard distance >= amount, let value = choice(at: index, isBelow: isBelow, distance: distance - amount) else {
                    return nil
                }
                candidate[index] = value
                lowered = true
            }
        }
        guard lowered else { return nil }
        var removed = Set<Int>()
        for element in run {
            let span = structure.spans[element]
            removed.formUnion(span.start..<Swift.min(span.end, base.count))
        }
        return candidate.indices.filter { !removed.contains($0) }.map { candidate[$0] }
    }

    /// Lowers a small choice by one while deleting 1 to 4 choices shortly after it: the move
    /// that shortens a list whose length was drawn first (`flatMap` on a count). Collections'
    /// "another element?" choices are left to the element passes.
    mutating func lowerAndDelete() {
        var index = 0
        while index < best.count && isRunning {
            if (1...64).contains(best[index]) && !structure.continuations.contains(index) {
                search: for size in 1...4 {
                    var start = index + 1
                    while start + size <= Swift.min(best.count, index + 1 + 8 + size) && isRunning {
                        var candidate = best
                        candidate[index] -= 1
                        candidate.removeSubrange(start..<(start + size))
                        if improve(candidate) { break search }
                        start += 1
                    }
                }
            }
            index += 1
        }
    }

    /// Sets blocks of 8, 4 and 2 neighbouring choices to zero. Blocks holding a collection's
    /// "another element?" choice are skipped: zeroing one cuts the collection short, which the
    /// element passes already tried.
    mutating func zeroChunks() {
        for size in [8, 4, 2] {
            var start = best.count - size
            while start >= 0 && isRunning {
                if start + size <= best.count, best[start..<(start + size)].contains(where: { $0 != 0 }),
                   !holdsContinuation(start..<(start + size)) {
                    improve(replacing(start..<(start + size), with: 0))
                }
                start -= 1
            }
        }
    }

    /// Sorts runs of 8 down to 2 neighbouring choices in ascending order. Runs holding a
    /// collection's "another element?" choice are skipped: sorting one into an element's draws
    /// scrambles the collection, and ``sortSpans()`` sorts elements as wholes.
    mutating func sortChoices() {
        for size in stride(from: 8, through: 2, by: -1) {
            var start = best.count - size
            while start >= 0 && isRunning {
                if start + size <= best.count && !holdsContinuation(start..<(start + size)) {
                    let chunk = best[start..<(start + size)]
                    let sorted = chunk.sorted()
                    if !sorted.elementsEqual(chunk) {
                        var candidate = best
                        candidate.replaceSubrange(start..<(start + size), with: sorted)
                        improve(candidate)
                    }
                }
                start -= 1
            }
        }
    }
}

extension Shrinker {
    /// Whether `range` of the best sequence holds a collection's "another element?" choice.
    func holdsContinuation(_ range: Range<Int>) -> Bool {
        range.contains { structure.continuations.contains($0) }
    }
}
