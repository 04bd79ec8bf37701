// The value shrink passes: they lower numbers, alone, in groups of equal ones, in pairs by the
// same amount, or by moving value from one to another. Searches probe exponentially before
// they bisect, so a value of 2^31 reaches a small threshold in a few dozen replays.

extension Shrinker {
    /// The largest `n` in `0...limit` for which `attempt(n)` improves the best sequence,
    /// assuming `attempt(0)` would: probes 1, 2, 3, 4, 8, 16, ... until one fails, then
    /// bisects between the last success and that failure (Hypothesis's `find_integer`).
    /// Costs about `2 log2(n)` attempts, and a single one when `attempt(1)` fails.
    mutating func findLargest(upTo limit: UInt64, _ attempt: (inout Shrinker, UInt64) -> Bool) -> UInt64 {
        var low: UInt64 = 0
        var probe: UInt64 = 1
        var high: UInt64 = 0
        while low < limit && isRunning {
            probe = Swift.min(probe, limit)
            guard attempt(&self, probe) else {
                high = probe
                break
            }
            low = probe
            probe = probe < 4 ? probe + 1 : (probe > UInt64.max / 2 ? UInt64.max : probe * 2)
        }
        while high > low + 1 && isRunning {
            let middle = low + (high - low) / 2
            if attempt(&self, middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// Lowers the equal choices at `indices` to the simplest common value that still fails:
    /// tries the target (choice `0`), then lowers their distance from the target keeping
    /// their side (see ``lowerDistance(_:isBelow:)``), then, for values below the target,
    /// tries the value at the same distance above it (`-5` becomes `5`), and lowers again.
    mutating func lowerToSmallest(_ indices: [Int]) {
        guard let first = indices.first, first < best.count, best[first] > 0 else { return }
        if improve(replacing(indices, with: 0)) { return }
        guard bound(at: first) > 1 else { return }
        let side = position(at: first).isBelow
        lowerDistance(indices, isBelow: side)
        guard side, first < best.count, position(at: first).isBelow else { return }
        if improve(choice(at: first, isBelow: false, distance: position(at: first).distance).map { replacing(indices, with: $0) }) {
            lowerDistance(indices, isBelow: false)
        }
    }

    /// Lowers the distance from the target of the equal choices at `indices`, keeping their
    /// side. Tries one less, then two less: if neither fails, the value is stuck and the
    /// search ends after two replays. If only two less fails (a filter that keeps even values),
    /// the search moves in steps of two. Then it gallops from both ends at once (distances
    /// 1, 2, 4, 8, ... from below, and the current distance minus 1, 2, 4, 8, ... from above)
    /// until one side finds where failing stops, and bisects there. So a value of 2^31 with a
    /// threshold at 1234 takes a few dozen replays, and a value that can only move a little
    /// (a partner four units away) finds its place in a handful.
    mutating func lowerDistance(_ indices: [Int], isBelow side: Bool) {
        guard let first = indices.first else { return }
        func current() -> UInt64? {
            guard first < best.count else { return nil }
            let (isBelow, distance) = position(at: first)
            return isBelow == side ? distance : nil
        }
        func attempt(_ distance: UInt64) -> Bool {
            improve(choice(at: first, isBelow: side, distance: distance).map { replacing(indices, with: $0) })
        }
        guard let distance = current(), distance > 1 else { return }
        let stride: UInt64
        if attempt(distance - 1) {
            stride = 1
        } else if distance > 2 && attempt(distance - 2) {
            stride = 2
        } else {
            return
        }
        guard let start = current() else { return }
        // Distances `low` and below never improved (distance 0 was tried first); the current
        // one fails. With a stride of two, only distances of the current one's parity count.
        var low: UInt64 = start % stride
        var below: UInt64 = low + stride
        var step = stride
        gallop: while let high = current(), low + stride < high, isRunning {
            if step < high - low {
                if attempt(high - step) {
                    step = step > UInt64.max / 4 ? step : step * 2
                } else {
                    low = high - step
                    break gallop
                }
            }
            guard let high = current(), below < high else { break }
            if attempt(below) { break gallop }
            low = Swift.max(low, below)
            below = below > UInt64.max / 4 ? below : 2 * below - low % stride
        }
        while let high = current(), low + stride < high, isRunning {
            let middle = high - stride * ((high - low) / stride / 2)
            if !attempt(middle) { low = middle }
        }
    }

    /// Lowers every choice on its own, from the first to the last: an early choice (a root, a
    /// length, a parent's key) settles while the choices after it can still adapt, instead of
    /// the later choices settling around an early value that then cannot move.
    ///
    /// The "another element?" choices of collections are left to the element passes:
    /// setting one to zero would cut the collection there, a deletion those passes try better.
    mutating func minimizeChoices() {
        let continuations = structure.continuations
        var index = 0
        while index < best.count && isRunning {
            if index < best.count && best[index] > 0 && !continuations.contains(index) {
                if bound(at: index) <= 1 {
                    improve(replacing([index], with: 0))
                } else {
                    lowerToSmallest([index])
                }
            }
            index += 1
        }
    }

    /// Lowers groups of equal numbers together (two arguments that must stay equal, a value
    /// repeated in a list), largest values first.
    mutating func lowerDuplicates() {
        struct Key: Hashable {
            let value: UInt64
            let bound: UInt64
            let shape: IntegerShape?
        }
        var groups: [Key: [Int]] = [:]
        for index in best.indices where isLowerableNumber(at: index) {
            groups[Key(value: best[index], bound: bound(at: index), shape: shape(at: index)), default: []].append(index)
        }
        for (key, indices) in groups.sorted(by: { $0.key.value > $1.key.value }) where indices.count > 1 && isRunning {
            guard indices.allSatisfy({ $0 < best.count && best[$0] == key.value }) else { continue }
            lowerToSmallest(indices)
        }
    }

    /// The indices of the (at most `count`) lowerable numbers after `index`.
    private func lowerableNumbers(after index: Int, count: Int) -> [Int] {
        var result: [Int] = []
        var next = index + 1
        while next < best.count && result.count < count {
            if isLowerableNumber(at: next) { result.append(next) }
            next += 1
        }
        return result
    }

    /// `base` with the values at `first` and `second` moved to the given distances from their
    /// targets on the given sides; `nil` when a value would leave its range.
    private func moving(
        _ base: [UInt64], _ first: Int, to firstPosition: (isBelow: Bool, distance: UInt64),
        _ second: Int, to secondPosition: (isBelow: Bool, distance: UInt64)
    ) -> [UInt64]? {
        guard let a = choice(at: first, isBelow: firstPosition.isBelow, distance: firstPosition.distance),
              let b = choice(at: second, isBelow: secondPosition.isBelow, distance: secondPosition.distance)
        else { return nil }
        var candidate = base
        candidate[first] = a
        candidate[second] = b
        return candidate
    }

    /// Lowers pairs of nearby numbers (each with the next three numbers after it) by the same
    /// distance toward their targets: the largest amount that still fails, found by trying one,
    /// then all of it, then bisecting. Two values that must stay 4 apart travel from 2^31 to
    /// their threshold together.
    mutating func lowerTogether() {
        var first = 0
        while first < best.count && isRunning {
            defer { first += 1 }
            guard isLowerableNumber(at: first) else { continue }
            for second in lowerableNumbers(after: first, count: 3) where isRunning {
                guard isLowerableNumber(at: first), isLowerableNumber(at: second) else { break }
                let base = best
                let a = position(at: first), b = position(at: second)
                let most = Swift.min(a.distance, b.distance)
                func lowered(_ amount: UInt64) -> [UInt64]? {
                    moving(base, first, to: (a.isBelow, a.distance - amount), second, to: (b.isBelow, b.distance - amount))
                }
                guard improve(lowered(1)), most > 1, !improve(lowered(most)) else { continue }
                var low: UInt64 = 1, high = most
                while high > low + 1 && isRunning {
                    let middle = low + (high - low) / 2
                    if improve(lowered(middle)) { low = middle } else { high = middle }
                }
            }
        }
    }

    /// Moves every integer by the same amount, chosen so that the first integer that is not at
    /// its target reaches it: a structure ordered by its keys (a heap, a sorted list) keeps its
    /// order while its keys move toward zero together, so `(-1, (-1), (0))` becomes `(0, (0), (1))`.
    /// One candidate per integer that is not at its target, from the first.
    mutating func shiftTogether() {
        var first = 0
        while first < best.count && isRunning {
            defer { first += 1 }
            guard shape(at: first) != nil, best[first] > 0 else { continue }
            let origin = position(at: first)
            var candidate = best
            var valid = true
            for index in first..<best.count where shape(at: index) != nil {
                let (isBelow, distance) = position(at: index)
                // The offset from the target moves by the first integer's offset, negated.
                let moved: (isBelow: Bool, distance: UInt64)
                if isBelow == origin.isBelow {
                    moved = distance >= origin.distance
                        ? (isBelow, distance - origin.distance) : (!isBelow, origin.distance - distance)
                } else {
                    let (sum, overflow) = distance.addingReportingOverflow(origin.distance)
                    if overflow { valid = false; break }
                    moved = (isBelow, sum)
                }
                guard let encoded = choice(at: index, isBelow: moved.isBelow, distance: moved.distance) else {
                    valid = false
                    break
                }
                candidate[index] = encoded
            }
            if valid && improve(candidate) { return }
        }
    }

    /// Moves value from a number to one of the next three numbers of the same range and on the
    /// same side of their target, keeping their sum (where only the sum matters, the earlier one goes to its
    /// simplest): tries moving one, then as much as there is, then bisects. A value pushed
    /// past the end of its range comes back from the other end, as fixed-width arithmetic
    /// wraps: `(1, 32767)` of `Int16` becomes `(0, -32768)`, whose wrapping sum is the same.
    mutating func redistribute() {
        var first = 0
        while first < best.count && isRunning {
            defer { first += 1 }
            guard isLowerableNumber(at: first) else { continue }
            for second in lowerableNumbers(after: first, count: 3) where isRunning {
                guard isLowerableNumber(at: first), second < best.count else { break }
                let base = best
                let a = position(at: first), b = position(at: second)
                // Only values of one kind (the same range) add up to a meaningful sum.
                guard a.isBelow == b.isBelow, shape(at: first) == shape(at: second), bound(at: first) == bound(at: second)
                else { continue }
                let side = b.isBelow
                let secondShape = shape(at: second)
                let room = secondShape.map { (side ? $0.below : $0.above) - b.distance } ?? bound(at: second) - b.distance
                let wrapRoom = secondShape.map { side ? $0.above : $0.below } ?? 0
                let most = Swift.min(a.distance, room &+ wrapRoom < room ? UInt64.max : room + wrapRoom)
                guard most > 0 else { continue }
                func moved(_ amount: UInt64) -> [UInt64]? {
                    // Within the side's room the second value moves away from the target; past
                    // it, it wraps around to the far end of the other side.
                    let secondPosition = amount <= room
                        ? (isBelow: side, distance: b.distance + amount)
                        : (isBelow: !side, distance: wrapRoom - (amount - room) + 1)
                    return moving(base, first, to: (side, a.distance - amount), second, to: secondPosition)
                }
                guard improve(moved(1)), most > 1, !improve(moved(most)) else { continue }
                var low: UInt64 = 1, high = most
                while high > low + 1 && isRunning {
                    let middle = low + (high - low) / 2
                    if improve(moved(middle)) { low = middle } else { high = middle }
                }
            }
        }
    }
}
