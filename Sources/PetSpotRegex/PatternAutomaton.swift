/// The deterministic form of a ``PatternNFA``: one left-to-right pass over the UTF-8 bytes, one
/// table lookup per code point. ASCII bytes map to an input class through a table, other code
/// points through a binary search over the boundaries of the pattern's sets.
///
/// Built once by subset construction. A state is the set of instructions reached by consuming
/// (before their closure), with whether it is position 0 and whether the previous code point is
/// a word character: the closure is taken on the next code point's class, so `^`, `$`, `\b`
/// and `\B` are decided with both neighbours known. Every state also restarts the search at its
/// position (unless the pattern is anchored at the start). Patterns whose table would be large
/// or slow to build (big repeat counts, many distinct atoms) or whose sets use Unicode
/// properties keep the state-set run.
struct PatternAutomaton: Sendable {
    /// Input class of each ASCII byte.
    private let asciiClasses: [UInt8]
    /// Sorted starts of the code point intervals from U+0080 on, each with one input class.
    private let intervalStarts: [UInt32]
    private let intervalClasses: [UInt8]
    private let classCount: Int
    /// `transitions[state * classCount + class]`: the next state, or ``matched``.
    private let transitions: [UInt16]
    /// Per state: ``acceptsAtEnd`` (a match ends here when the input ends here), ``dead`` (no
    /// match can follow).
    private let flags: [UInt8]

    private static let matched = UInt16.max
    private static let acceptsAtEnd: UInt8 = 1
    private static let dead: UInt8 = 2
    private static let maximumStates = 1_024
    /// The most instructions the construction may visit (closures and kernels) before it gives
    /// up: a table that would take longer to build keeps the state-set run.
    private static let maximumConstructionWork = 1_000_000
    private static let maximumSignatureBits = 64

    /// A state while building: the instructions reached by consuming, before their closure.
    private struct Key: Hashable {
        var kernel: [Int]
        var atStart: Bool
        var previousIsWord: Bool
    }

    /// The table for `nfa`, or nil when it would be too large or a set uses Unicode properties.
    init?(_ nfa: PatternNFA) {
        // Input classes: code points with the same membership in every atom (and, when the
        // pattern reads word boundaries, the same word-ness).
        let atoms = nfa.atoms
        let signatureBits = atoms.count + (nfa.readsWordBoundaries ? 1 : 0)
        guard signatureBits <= Self.maximumSignatureBits else { return nil }
        func signature(_ scalar: UInt32) -> UInt64 {
            var bits: UInt64 = 0
            for (index, atom) in atoms.enumerated() where atom.matches(scalar) { bits |= 1 << UInt64(index) }
            if nfa.readsWordBoundaries && ScalarPredicate.isWord(scalar) { bits |= 1 << UInt64(atoms.count) }
            return bits
        }
        var boundaries: Set<UInt32> = [0x80]
        for atom in atoms {
            switch atom {
            case .scalar(let value): boundaries.formUnion([value, value + 1])
            case .anyExceptLineTerminator: boundaries.formUnion([0x2028, 0x202A])
            case .set(let set):
                for range in set.ranges { boundaries.formUnion([range.lowerBound, range.upperBound + 1]) }
                for predicate in set.predicates {
                    switch predicate {
                    case .digit, .notDigit, .word, .notWord: break
                    case .space, .notSpace:
                        for range: ClosedRange<UInt32> in [0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF] {
                            boundaries.formUnion([range.lowerBound, range.upperBound + 1])
                        }
                    case .generalCategories, .binary:
                        return nil
                    }
                }
            }
        }
        var classOfSignature: [UInt64: UInt8] = [:]
        var representatives: [UInt32] = []
        func classOf(_ scalar: UInt32) -> UInt8? {
            let bits = signature(scalar)
            if let known = classOfSignature[bits] { return known }
            guard classOfSignature.count < 255 else { return nil }
            let next = UInt8(classOfSignature.count)
            classOfSignature[bits] = next
            representatives.append(scalar)
            return next
        }
        var asciiClasses: [UInt8] = []
        for byte in UInt32(0)..<128 {
            guard let found = classOf(byte) else { return nil }
            asciiClasses.append(found)
        }
        var intervalStarts: [UInt32] = []
        var intervalClasses: [UInt8] = []
        for start in boundaries.sorted() where start >= 0x80 && start <= 0x10FFFF {
            guard let found = classOf(start) else { return nil }
            if intervalClasses.last == found { continue }
            intervalStarts.append(start)
            intervalClasses.append(found)
        }
        let classCount = representatives.count

        // Subset construction.
        var set = PatternNFA.StateSet(capacity: nfa.program.count)
        var stack: [Int] = []
        var work = 0
        /// The closure of `key`'s kernel (and the restart) in `context`; nil when it reaches `accept`.
        func closure(_ key: Key, _ context: PatternNFA.Context) -> PatternNFA.StateSet? {
            set.removeAll()
            defer { work += set.count }
            if key.atStart || !nfa.anchoredAtStart {
                if nfa.addClosure(nfa.entry, context, &set, &stack) { return nil }
            }
            for state in key.kernel where nfa.addClosure(state, context, &set, &stack) { return nil }
            return set
        }
        let initial = Key(kernel: [], atStart: true, previousIsWord: false)
        var keys = [initial]
        var index: [Key: Int] = [initial: 0]
        var transitions: [UInt16] = []
        var flags: [UInt8] = []
        var cursor = 0
        while cursor < keys.count {
            let key = keys[cursor]
            cursor += 1
            guard work <= Self.maximumConstructionWork else { return nil }
            let atEnd = PatternNFA.Context(atStart: key.atStart, atEnd: true, previousIsWord: key.previousIsWord, nextIsWord: false)
            flags.append(closure(key, atEnd) == nil ? Self.acceptsAtEnd : 0)
            for representative in representatives {
                let nextIsWord = ScalarPredicate.isWord(representative)
                let context = PatternNFA.Context(
                    atStart: key.atStart, atEnd: false, previousIsWord: key.previousIsWord, nextIsWord: nextIsWord)
                guard let reached = closure(key, context) else {
                    transitions.append(Self.matched)
                    continue
                }
                var kernel: [Int] = []
                for position in 0..<reached.count {
                    if case .consume(let atom, let target) = nfa.program[reached.states[position]], atoms[atom].matches(representative) {
                        kernel.append(target)
                    }
                }
                work += kernel.count
                let next = Key(
                    kernel: Array(Set(kernel)).sorted(), atStart: false,
                    previousIsWord: nfa.readsWordBoundaries && nextIsWord)
                if let known = index[next] {
                    transitions.append(UInt16(known))
                } else {
                    guard keys.count < Self.maximumStates else { return nil }
                    index[next] = keys.count
                    transitions.append(UInt16(keys.count))
                    keys.append(next)
                }
            }
        }
        // Dead states: neither a match nor an accepting end is reachable from them.
        var live = flags.map { $0 & Self.acceptsAtEnd != 0 }
        var changed = true
        while changed {
            changed = false
            for state in 0..<keys.count where !live[state] {
                for inputClass in 0..<classCount {
                    let target = transitions[state * classCount + inputClass]
                    if target == Self.matched || live[Int(target)] {
                        live[state] = true
                        changed = true
                        break
                    }
                }
            }
        }
        for state in 0..<keys.count where !live[state] { flags[state] |= Self.dead }
        self.asciiClasses = asciiClasses
        self.intervalStarts = intervalStarts
        self.intervalClasses = intervalClasses
        self.classCount = classCount
        self.transitions = transitions
        self.flags = flags
    }

    /// Whether the pattern matches somewhere in `bytes` (valid UTF-8).
    func matches(_ bytes: Span<UInt8>) -> Bool {
        var state = 0
        var position = 0
        let count = bytes.count
        let classCount = self.classCount
        while position < count {
            let byte = bytes[position]
            let inputClass: Int
            if byte < 0x80 {
                inputClass = Int(asciiClasses[Int(byte)])
                position += 1
            } else {
                let (scalar, length) = PatternNFA.decode(bytes, position)
                inputClass = classOf(scalar)
                position += length
            }
            let next = transitions[state * classCount + inputClass]
            if next == Self.matched { return true }
            state = Int(next)
            if flags[state] & Self.dead != 0 { return false }
        }
        return flags[state] & Self.acceptsAtEnd != 0
    }

    /// The input class of a code point ≥ U+0080: that of the last interval starting at or
    /// below it (the first starts at U+0080).
    private func classOf(_ scalar: UInt32) -> Int {
        var low = 0
        var high = intervalStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if intervalStarts[middle] <= scalar { low = middle } else { high = middle }
        }
        return Int(intervalClasses[low])
    }
}
