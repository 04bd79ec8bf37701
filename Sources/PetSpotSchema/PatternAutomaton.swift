/// A deterministic automaton for a simple pattern without lookaheads: anchors, atoms with repeat
/// counts and fixed-length alternations (the shapes of the contract schemas' trim-and-match
/// patterns). Without captures observed, backreferences or lookarounds, whether an ECMA-262
/// pattern matches somewhere is plain language membership, so one left-to-right pass over the
/// UTF-8 bytes decides it: ASCII bytes map to an input class through a table, other code points
/// through a binary search over the boundaries of the pattern's sets.
/// Built once by subset construction; patterns whose automaton would be large (big repeat
/// counts, Unicode property classes) keep the step matcher.
final class PatternAutomaton: Sendable {
    /// Input class of each ASCII byte.
    private let asciiClasses: [UInt8]
    /// Sorted starts of the code point intervals from U+0080 on, each with one input class.
    private let intervalStarts: [UInt32]
    private let intervalClasses: [UInt8]
    private let classCount: Int
    /// `transitions[state * classCount + class]`: the next state.
    private let transitions: [UInt16]
    /// Per state: `acceptsNow` (a match ends here), `acceptsAtEnd` (a match ends here when the
    /// input ends here), `dead` (no match can follow).
    private let flags: [UInt8]
    private let matchesEmpty: Bool

    private static let acceptsNow: UInt8 = 1
    private static let acceptsAtEnd: UInt8 = 2
    private static let dead: UInt8 = 4
    private static let maximumNFAStates = 2_000
    private static let maximumDFAStates = 1_024
    private static let maximumAtoms = 64

    /// One labelled NFA edge.
    private struct Edge {
        enum Label { case epsilon, start, end, atom(Int) }
        var label: Label
        var target: Int
    }

    /// The automaton for the main step list `0..<mainCount` of `steps`, or nil when the list has
    /// lookaheads or the automaton would be too large.
    init?(steps: [SimplePattern.Step], mainCount: Int, extras: [ScalarSet], branches: [SimplePattern.Branch]) {
        // Thompson-style NFA over the step list.
        var edges: [[Edge]] = [[]]
        var atoms: [Int] = []
        func newState() -> Int {
            edges.append([])
            return edges.count - 1
        }
        func atomIndex(_ step: Int) -> Int {
            if let found = atoms.firstIndex(of: step) { return found }
            atoms.append(step)
            return atoms.count - 1
        }
        var current = 0
        for index in 0..<mainCount {
            let step = steps[index]
            switch step.kind {
            case .start, .end:
                let next = newState()
                edges[current].append(Edge(label: step.kind == .start ? .start : .end, target: next))
                current = next
            case .atom:
                let optional = step.maximum == Int.max ? 1 : step.maximum - step.minimum
                guard step.minimum <= Self.maximumNFAStates, optional <= Self.maximumNFAStates,
                      edges.count + step.minimum + optional + 2 <= Self.maximumNFAStates else { return nil }
                let atom = atomIndex(index)
                for _ in 0..<step.minimum {
                    let next = newState()
                    edges[current].append(Edge(label: .atom(atom), target: next))
                    current = next
                }
                if step.maximum == Int.max {
                    let loop = newState()
                    edges[current].append(Edge(label: .epsilon, target: loop))
                    edges[loop].append(Edge(label: .atom(atom), target: loop))
                    current = loop
                } else if optional > 0 {
                    let after = newState()
                    for _ in 0..<optional {
                        let next = newState()
                        edges[current].append(Edge(label: .epsilon, target: after))
                        edges[current].append(Edge(label: .atom(atom), target: next))
                        current = next
                    }
                    edges[current].append(Edge(label: .epsilon, target: after))
                    current = after
                }
            case .alternation:
                let after = newState()
                for branchIndex in step.innerStart..<step.innerEnd {
                    let branch = branches[branchIndex]
                    var position = current
                    for atomStep in branch.start..<branch.end {
                        let count = steps[atomStep].minimum
                        guard count <= Self.maximumNFAStates, edges.count + count + 1 <= Self.maximumNFAStates else { return nil }
                        let atom = atomIndex(atomStep)
                        for _ in 0..<count {
                            let next = newState()
                            edges[position].append(Edge(label: .atom(atom), target: next))
                            position = next
                        }
                    }
                    edges[position].append(Edge(label: .epsilon, target: after))
                }
                current = after
            case .lookahead, .negativeLookahead:
                return nil
            }
        }
        let accept = current
        guard atoms.count <= Self.maximumAtoms else { return nil }

        // Input classes: code points with the same membership in every atom.
        func member(_ atom: Int, _ scalar: UInt32) -> Bool {
            let step = steps[atoms[atom]]
            switch step.atom {
            case .scalar: return scalar == step.scalar
            case .any: return scalar != 0x0A && scalar != 0x0D && scalar != 0x2028 && scalar != 0x2029
            case .set:
                if scalar < 128 {
                    let inBitmap = scalar < 64
                        ? step.asciiLow & (1 << UInt64(scalar)) != 0
                        : step.asciiHigh & (1 << UInt64(scalar - 64)) != 0
                    return inBitmap != step.negated
                }
                if step.extra < 0 { return step.negated }
                return extras[step.extra].contains(scalar)
            }
        }
        func signature(_ scalar: UInt32) -> UInt64 {
            var bits: UInt64 = 0
            for atom in atoms.indices where member(atom, scalar) { bits |= 1 << UInt64(atom) }
            return bits
        }
        var boundaries: Set<UInt32> = [0x80]
        for atom in atoms {
            let step = steps[atom]
            switch step.atom {
            case .scalar: boundaries.formUnion([step.scalar, step.scalar + 1])
            case .any: boundaries.formUnion([0x2028, 0x202A])
            case .set:
                guard step.extra >= 0 else { break }
                let set = extras[step.extra]
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
        func classOf(_ scalar: UInt32) -> UInt8? {
            let bits = signature(scalar)
            if let known = classOfSignature[bits] { return known }
            guard classOfSignature.count < 255 else { return nil }
            let next = UInt8(classOfSignature.count)
            classOfSignature[bits] = next
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
        let classCount = classOfSignature.count
        var representatives = [UInt32](repeating: 0, count: classCount)
        var represented = [Bool](repeating: false, count: classCount)
        for (scalar, found) in zip(0..<UInt32(128), asciiClasses) where !represented[Int(found)] {
            representatives[Int(found)] = scalar
            represented[Int(found)] = true
        }
        for (scalar, found) in zip(intervalStarts, intervalClasses) where !represented[Int(found)] {
            representatives[Int(found)] = scalar
            represented[Int(found)] = true
        }

        // Subset construction; every state also restarts the search at the next position.
        func closure(_ seeds: [Int], start: Bool, end: Bool) -> [Int] {
            var seen = [Bool](repeating: false, count: edges.count)
            var stack = seeds
            var result: [Int] = []
            for seed in seeds { seen[seed] = true }
            while let state = stack.popLast() {
                result.append(state)
                for edge in edges[state] {
                    let follows: Bool
                    switch edge.label {
                    case .epsilon: follows = true
                    case .start: follows = start
                    case .end: follows = end
                    case .atom: follows = false
                    }
                    if follows && !seen[edge.target] {
                        seen[edge.target] = true
                        stack.append(edge.target)
                    }
                }
            }
            return result.sorted()
        }
        let restart = closure([0], start: false, end: false)
        let initial = closure([0], start: true, end: false)
        var sets: [[Int]] = [initial]
        var index: [[Int]: Int] = [initial: 0]
        var transitions: [UInt16] = []
        var flags: [UInt8] = []
        var cursor = 0
        while cursor < sets.count {
            let set = sets[cursor]
            cursor += 1
            var flag: UInt8 = 0
            if set.contains(accept) { flag |= Self.acceptsNow }
            if closure(set, start: false, end: true).contains(accept) { flag |= Self.acceptsAtEnd }
            flags.append(flag)
            for inputClass in 0..<classCount {
                let scalar = representatives[inputClass]
                var moved: [Int] = []
                for state in set {
                    for edge in edges[state] {
                        if case .atom(let atom) = edge.label, member(atom, scalar) { moved.append(edge.target) }
                    }
                }
                let next = Array(Set(closure(moved, start: false, end: false) + restart)).sorted()
                if let known = index[next] {
                    transitions.append(UInt16(known))
                } else {
                    guard sets.count < Self.maximumDFAStates else { return nil }
                    index[next] = sets.count
                    transitions.append(UInt16(sets.count))
                    sets.append(next)
                }
            }
        }
        // Dead states: no accepting state is reachable from them.
        var live = flags.map { $0 & (Self.acceptsNow | Self.acceptsAtEnd) != 0 }
        var changed = true
        while changed {
            changed = false
            for state in 0..<sets.count where !live[state] {
                for inputClass in 0..<classCount where live[Int(transitions[state * classCount + inputClass])] {
                    live[state] = true
                    changed = true
                    break
                }
            }
        }
        for state in 0..<sets.count where !live[state] { flags[state] |= Self.dead }
        self.asciiClasses = asciiClasses
        self.intervalStarts = intervalStarts
        self.intervalClasses = intervalClasses
        self.classCount = classCount
        self.transitions = transitions
        self.flags = flags
        self.matchesEmpty = closure([0], start: true, end: true).contains(accept)
    }

    /// Whether the pattern matches somewhere in `bytes` (valid UTF-8).
    func matches(_ bytes: Span<UInt8>) -> Bool {
        if bytes.isEmpty { return matchesEmpty }
        var state = 0
        if flags[0] & Self.acceptsNow != 0 { return true }
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
                let (scalar, length) = Self.decode(bytes, position)
                inputClass = classOf(scalar)
                position += length
            }
            state = Int(transitions[state * classCount + inputClass])
            let flag = flags[state]
            if flag & (Self.acceptsNow | Self.dead) != 0 { return flag & Self.acceptsNow != 0 }
        }
        return flags[state] & Self.acceptsAtEnd != 0
    }

    @inline(__always)
    private static func decode(_ bytes: Span<UInt8>, _ position: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[position])
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard position + length <= bytes.count else { return (0xFFFD, bytes.count - position) }
        var value = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        return (value, length)
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
