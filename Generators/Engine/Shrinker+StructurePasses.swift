// The structural shrink passes: they work on spans (collection elements, alternatives,
// recursive levels), so they delete, merge, replace and reorder whole values at once.

extension Shrinker {
    /// Sets the draws of all elements of each collection to zero at once (outermost collections
    /// first), keeping their "another?" choices: a long string whose characters do not matter
    /// becomes all `a` in one replay, before the element passes spend a replay per character.
    mutating func zeroCollections() {
        var position = 0
        while position < structure.spans.count && isRunning {
            defer { position += 1 }
            guard structure.spans[position].kind == .collection else { continue }
            let elements = structure.elements(ofCollectionAt: position)
            guard elements.count > 1 else { continue }
            var candidate = best
            var changed = false
            for element in elements {
                let span = structure.spans[element]
                for index in span.contentStart..<Swift.min(span.end, candidate.count) where candidate[index] != 0 {
                    candidate[index] = 0
                    changed = true
                }
            }
            if changed { improve(candidate) }
        }
    }

    /// Deletes runs of consecutive elements of a collection, from the last element toward the
    /// first: at each element, the run ending there grows 1, 2, 3, 4, 8, ... elements while
    /// the deletion still fails, then a binary search finds the longest run. A list with a
    /// hundred irrelevant elements loses them in a dozen replays instead of a hundred.
    ///
    /// An element drawn below the collection's minimum count has no "another?" choice; deleting
    /// it also deletes that choice of the next optional element, which takes its place.
    mutating func deleteElements() {
        var position = structure.spans.count - 1
        while position >= 0 && isRunning {
            if position >= structure.spans.count {
                position = structure.spans.count - 1
                continue
            }
            guard structure.spans[position].kind == .element, structure.parents[position] >= 0 else {
                position -= 1
                continue
            }
            let siblings = structure.elements(ofCollectionAt: structure.parents[position])
            guard let last = siblings.firstIndex(of: position) else {
                position -= 1
                continue
            }
            // Deleting this element alone gives the same sequence as deleting the next one when
            // both drew the same (a run of equal characters): that one was tried just before.
            if last + 1 < siblings.count,
               sameDraws(structure.spans[siblings[last]], structure.spans[siblings[last + 1]]) {
                position -= 1
                continue
            }
            let base = best, baseStructure = structure
            let deleted = findLargest(upTo: UInt64(last + 1)) { shrinker, count in
                let run = siblings[(last - Int(count) + 1)...last]
                return shrinker.improve(Self.deleting(run, siblings: siblings, in: baseStructure, from: base))
            }
            position = deleted > 0 ? siblings[last - Int(deleted) + 1] - 1 : position - 1
        }
    }

    /// Whether two spans of the best sequence hold the same choices.
    private func sameDraws(_ first: Span, _ second: Span) -> Bool {
        first.end - first.start == second.end - second.start && second.end <= best.count
            && best[first.start..<first.end].elementsEqual(best[second.start..<second.end])
    }

    /// `base` without the element spans at `run` (consecutive entries of `siblings`); for each
    /// mandatory element deleted, the "another?" choice of one optional sibling after the run
    /// goes too, so that the following elements keep their draws.
    static func deleting(
        _ run: ArraySlice<Int>, siblings: [Int], in structure: ShrinkStructure, from base: [UInt64]
    ) -> [UInt64] {
        var removed = Array(repeating: false, count: base.count)
        var mandatory = 0
        for position in run {
            let span = structure.spans[position]
            if span.start == span.contentStart { mandatory += 1 }
            for index in span.start..<Swift.min(span.end, base.count) { removed[index] = true }
        }
        if mandatory > 0, let lastRun = run.last, let after = siblings.firstIndex(of: lastRun) {
            for position in siblings[(after + 1)...] where mandatory > 0 {
                let span = structure.spans[position]
                if span.start < span.contentStart && span.start < base.count {
                    removed[span.start] = true
                    mandatory -= 1
                }
            }
        }
        var candidate: [UInt64] = []
        candidate.reserveCapacity(base.count)
        for index in base.indices where !removed[index] { candidate.append(base[index]) }
        return candidate
    }

    /// Merges neighbouring elements of a collection whose contents are themselves collections
    /// (lists of lists, lists of strings): deleting the first one's stop choice and the second
    /// one's "another?" choice concatenates them. Works from the last pair to the first.
    mutating func joinElements() {
        var position = structure.spans.count - 1
        while position >= 0 && isRunning {
            if position >= structure.spans.count {
                position = structure.spans.count - 1
                continue
            }
            guard structure.spans[position].kind == .collection else {
                position -= 1
                continue
            }
            let elements = structure.elements(ofCollectionAt: position)
            var improved = false
            for pair in stride(from: elements.count - 1, to: 0, by: -1) {
                let first = structure.spans[elements[pair - 1]], second = structure.spans[elements[pair]]
                guard second.start < second.contentStart, first.end == second.start,
                      structure.descendants(of: elements[pair - 1]).contains(where: {
                          structure.spans[$0].kind == .collection && structure.spans[$0].end == first.end
                      })
                else { continue }
                var candidate = best
                candidate.removeSubrange((first.end - 1)...first.end)
                if improve(candidate) {
                    improved = true
                    break
                }
            }
            if !improved { position -= 1 }
        }
    }

    /// Replaces each pick of an alternative (and each level of a recursive generator) by a
    /// pick of the same shape nested inside it, outermost first: a tree shrinks to the subtree
    /// that fails, skipping every intermediate size.
    mutating func passToDescendant() {
        var position = 0
        while position < structure.spans.count && isRunning {
            let span = structure.spans[position]
            guard span.kind == .alternative || span.kind == .deferred else {
                position += 1
                continue
            }
            var improved = false
            for inner in structure.descendants(of: position) where isRunning {
                let descendant = structure.spans[inner]
                guard descendant.kind == span.kind, descendant.label == span.label,
                      descendant.end - descendant.start < span.end - span.start
                else { continue }
                var candidate = Array(best[..<span.start])
                candidate += best[descendant.start..<descendant.end]
                candidate += best[span.end...]
                if improve(candidate) {
                    improved = true
                    break
                }
            }
            if !improved { position += 1 }
        }
    }

    /// Sets the draws of many collection elements to zero at once (all of them, then halves,
    /// quarters, ... down to single elements, keeping their "another?" choices), then each pick
    /// of an alternative or recursive level to its simplest draw: one replay simplifies every
    /// character of a long string when none of them matters.
    mutating func zeroSpans() {
        var elements = structure.spans.indices.filter { structure.spans[$0].kind == .element }
        var groupSize = Swift.max(1, elements.count)
        while isRunning {
            var first = 0
            while first < elements.count && isRunning {
                var candidate = best
                var changed = false
                for position in elements[first..<Swift.min(first + groupSize, elements.count)] {
                    let span = structure.spans[position]
                    for index in span.contentStart..<Swift.min(span.end, candidate.count) where candidate[index] != 0 {
                        candidate[index] = 0
                        changed = true
                    }
                }
                if changed && improve(candidate) {
                    elements = structure.spans.indices.filter { structure.spans[$0].kind == .element }
                }
                first += groupSize
            }
            if groupSize == 1 { break }
            groupSize = (groupSize + 1) / 2
        }
        var position = 0
        while position < structure.spans.count && isRunning {
            let span = structure.spans[position]
            position += 1
            guard span.kind == .alternative || span.kind == .deferred,
                  span.start < span.end, span.end <= best.count,
                  best[span.start..<span.end].contains(where: { $0 != 0 })
            else { continue }
            improve(replacing(span.start..<span.end, with: 0))
        }
    }

    /// Puts sibling spans of the same shape in order: the elements of each collection sorted by
    /// their draws (shortlex), keeping each element's "another?" choice in place, and each pair
    /// of neighbouring sibling picks or collections (two subtrees of one node, two lists of a
    /// tuple) swapped when the second is simpler. Where order does not matter, every run ends
    /// in the same order.
    mutating func sortSpans() {
        var position = -1
        while position < structure.spans.count && isRunning {
            defer { position += 1 }
            if position >= 0 && structure.spans[position].kind == .collection {
                sortElements(ofCollectionAt: position)
            }
            swapSiblings(of: position)
        }
    }

    /// Sorts the elements of the collection at `position` by their draws.
    private mutating func sortElements(ofCollectionAt position: Int) {
        let elements = structure.elements(ofCollectionAt: position).map { structure.spans[$0] }
        guard elements.count > 1,
              zip(elements, elements.dropFirst()).allSatisfy({ $0.end == $1.start }),
              let last = elements.last, last.end <= best.count
        else { return }
        let contents = elements.map { Array(best[$0.contentStart..<$0.end]) }
        let sorted = contents.sorted(by: isShortlexLess)
        guard sorted != contents else { return }
        var candidate = Array(best[..<elements[0].start])
        for (element, content) in zip(elements, sorted) {
            candidate += best[element.start..<element.contentStart]
            candidate += content
        }
        candidate += best[last.end...]
        if isShortlexLess(candidate, best) { improve(candidate) }
    }

    /// Orders the picks and collections of the same shape directly inside the span at
    /// `position` (or at the top level for `-1`): when they are contiguous, tries them sorted
    /// (their draws in lexicographic order) in one candidate; otherwise, or if that does not
    /// fail, swaps neighbours whose second one's draws come first. After each improvement it
    /// starts over on the new structure.
    private mutating func swapSiblings(of position: Int) {
        regroup: while isRunning {
            let range = position >= 0 ? structure.descendants(of: position) : 0..<structure.spans.count
            var groups: [[Span]] = []
            var groupIndex: [SiblingShape: Int] = [:]
            for index in range where structure.parents[index] == position && structure.spans[index].kind != .element {
                let span = structure.spans[index]
                let shape = SiblingShape(kind: span.kind, label: span.label)
                if let existing = groupIndex[shape] {
                    groups[existing].append(span)
                } else {
                    groupIndex[shape] = groups.count
                    groups.append([span])
                }
            }
            for group in groups where group.count > 1 {
                guard let last = group.last, last.end <= best.count else { continue }
                let slices = group.map { best[$0.start..<$0.end] }
                if zip(group, group.dropFirst()).allSatisfy({ $0.end == $1.start }) {
                    let sorted = slices.sorted { $0.lexicographicallyPrecedes($1) }
                    if !sorted.elementsEqual(slices, by: { $0.elementsEqual($1) }) {
                        var candidate = Array(best[..<group[0].start])
                        for slice in sorted { candidate += slice }
                        candidate += best[last.end...]
                        if improve(candidate) { continue regroup }
                    }
                }
                for pair in 1..<group.count {
                    let first = group[pair - 1], second = group[pair]
                    guard slices[pair].lexicographicallyPrecedes(slices[pair - 1]) else { continue }
                    var candidate = Array(best[..<first.start])
                    candidate += slices[pair]
                    candidate += best[first.end..<second.start]
                    candidate += slices[pair - 1]
                    candidate += best[second.end...]
                    if improve(candidate) { continue regroup }
                }
            }
            return
        }
    }
}

/// What makes two sibling spans interchangeable: the same kind and label.
private struct SiblingShape: Hashable {
    let kind: Span.Kind
    let label: UInt64
}
