/// The fast path for the patterns schemas use most (`^[0-9]+$`, `^\d{4}-\d{2}-\d{2}$`, `\S`,
/// `^(?=.{1,254}$)[^\s@]+@[^\s@]+\.[^\s@]+$`): a flat list of plain-data steps (anchors,
/// single-code-point atoms with a repeat count, lookaheads over such lists) matched by a loop with
/// backtracking only over repeat counts. No closures and no allocation.
/// Alternations whose branches are fixed-length runs of atoms (`(0[1-9]|1[0-2])`) are steps too.
/// Patterns with other alternations, backreferences, lookbehind, `\b` or repeated groups use the
/// general engine instead.
final class SimplePattern: Sendable {
    /// One step; a trivial (POD) type so that copying it out of the list costs no reference counting.
    struct Step: Sendable {
        enum Kind: UInt8, Sendable { case start, end, atom, lookahead, negativeLookahead, alternation }
        enum Atom: UInt8, Sendable { case scalar, any, set }
        var kind: Kind
        var atom: Atom = .scalar
        var scalar: UInt32 = 0
        var asciiLow: UInt64 = 0
        var asciiHigh: UInt64 = 0
        var negated = false
        /// Index into `extras` for code points ≥ 128 (sets only).
        var extra = -1
        var minimum = 1
        var maximum = 1
        var greedy = true
        /// For a variable repeat followed by a literal ASCII byte: that byte (else -1), so
        /// backtracking only retries positions where the continuation can start.
        var nextByte: Int16 = -1
        /// For lookaheads: the steps `innerStart..<innerEnd`; for alternations: the branches
        /// `innerStart..<innerEnd` of `branches`.
        var innerStart = 0
        var innerEnd = 0
    }

    private let steps: [Step]
    private let extras: [ScalarSet]
    /// Alternation branches: each the fixed-count atom steps `start..<end`.
    private let branches: [Branch]
    struct Branch: Sendable {
        var start: Int
        var end: Int
    }
    private let mainCount: Int
    private let anchoredAtStart: Bool
    /// Shapes matched by one loop over the bytes instead of the step interpreter.
    private enum Shape: Sendable {
        /// The general step list.
        case steps
        /// One unanchored code point (`\S`, `[0-9]`): some code point of the text matches.
        case containsAtom
        /// `^atom{m,n}$`: every code point matches and there are `m...n` of them.
        case wholeRun
    }
    private let shape: Shape
    /// The automaton for `.steps` shapes without lookaheads, when small enough.
    private let dfa: PatternAutomaton?
    /// ``dfa`` for the fast path, unretained (owned by ``dfa``).
    private let unretainedDFA: UnretainedReference<PatternAutomaton>?
    /// Whether matching runs the automaton.
    var usesAutomaton: Bool { dfa != nil }

    /// The simple form of `node`, or nil when it needs the general engine; `allowsAutomaton:
    /// false` keeps the step matcher (to compare the two).
    init?(_ node: RegexNode, allowsAutomaton: Bool = true) {
        var builder = Builder()
        var main: [RegexNode] = []
        guard Self.flatten(node, into: &main) else { return nil }
        var pending: [(Int, [[RegexNode]])] = []
        for item in main {
            guard builder.append(item, &pending) else { return nil }
        }
        mainCount = builder.steps.count
        var cursor = 0
        while cursor < pending.count {
            let (owner, lists) = pending[cursor]
            cursor += 1
            if builder.steps[owner].kind == .alternation {
                let firstBranch = builder.branches.count
                for list in lists {
                    let start = builder.steps.count
                    for item in list {
                        guard builder.append(item, &pending) else { return nil }
                    }
                    builder.branches.append(Branch(start: start, end: builder.steps.count))
                }
                builder.steps[owner].innerStart = firstBranch
                builder.steps[owner].innerEnd = builder.branches.count
            } else {
                let start = builder.steps.count
                for item in lists[0] {
                    guard builder.append(item, &pending) else { return nil }
                }
                builder.steps[owner].innerStart = start
                builder.steps[owner].innerEnd = builder.steps.count
            }
        }
        // Literal that must follow each variable repeat (within the same step list).
        var lists: [(Int, Int)] = [(0, mainCount)]
        for step in builder.steps where step.kind == .lookahead || step.kind == .negativeLookahead {
            lists.append((step.innerStart, step.innerEnd))
        }
        for (start, end) in lists {
            for index in start..<end where index + 1 < end {
                let next = builder.steps[index + 1]
                if builder.steps[index].kind == .atom, next.kind == .atom, next.atom == .scalar, next.minimum >= 1, next.scalar < 0x80 {
                    builder.steps[index].nextByte = Int16(next.scalar)
                }
            }
        }
        steps = builder.steps
        extras = builder.extras
        branches = builder.branches
        anchoredAtStart = builder.steps.first?.kind == .start
        let top = Array(builder.steps.prefix(mainCount))
        if mainCount == 1, top[0].kind == .atom, top[0].minimum == 1, top[0].maximum == 1 {
            shape = .containsAtom
        } else if mainCount == 3, top[0].kind == .start, top[1].kind == .atom, top[2].kind == .end {
            shape = .wholeRun
        } else {
            shape = .steps
        }
        dfa = shape == .steps && allowsAutomaton
            ? PatternAutomaton(steps: builder.steps, mainCount: mainCount, extras: builder.extras, branches: builder.branches)
            : nil
        unretainedDFA = dfa.map(UnretainedReference.init)
    }

    /// Accumulates steps while compiling.
    private struct Builder {
        var steps: [Step] = []
        var extras: [ScalarSet] = []
        var branches: [Branch] = []

        mutating func append(_ node: RegexNode, _ pending: inout [(Int, [[RegexNode]])]) -> Bool {
            switch node {
            case .lineStart: steps.append(Step(kind: .start))
            case .lineEnd: steps.append(Step(kind: .end))
            case .scalar, .anyExceptLineTerminator, .set:
                steps.append(atomStep(node, minimum: 1, maximum: 1, greedy: true))
            case .repetition(let inner, let minimum, let maximum, let greedy):
                steps.append(atomStep(inner, minimum: minimum, maximum: maximum, greedy: greedy))
            case .lookaround(let inner, _, let negated):
                var list: [RegexNode] = []
                guard SimplePattern.flatten(inner, into: &list) else { return false }
                steps.append(Step(kind: negated ? .negativeLookahead : .lookahead))
                pending.append((steps.count - 1, [list]))
            case .alternation(let alternatives):
                var lists: [[RegexNode]] = []
                for alternative in alternatives {
                    var list: [RegexNode] = []
                    guard SimplePattern.flattenFixed(alternative, into: &list) else { return false }
                    lists.append(list)
                }
                steps.append(Step(kind: .alternation))
                pending.append((steps.count - 1, lists))
            default:
                return false
            }
            return true
        }

        mutating func atomStep(_ node: RegexNode, minimum: Int, maximum: Int, greedy: Bool) -> Step {
            var step = Step(kind: .atom, minimum: minimum, maximum: maximum, greedy: greedy)
            switch node {
            case .scalar(let value):
                step.atom = .scalar
                step.scalar = value
            case .set(let set):
                step.atom = .set
                step.asciiLow = set.asciiLow
                step.asciiHigh = set.asciiHigh
                step.negated = set.negated
                if !set.ranges.isEmpty || !set.predicates.isEmpty || set.negated {
                    extras.append(set)
                    step.extra = extras.count - 1
                }
            default:
                step.atom = .any
            }
            return step
        }
    }

    private static func flatten(_ node: RegexNode, into list: inout [RegexNode]) -> Bool {
        switch node {
        case .empty: return true
        case .sequence(let nodes):
            for child in nodes where !flatten(child, into: &list) { return false }
            return true
        case .group(let inner, _): return flatten(inner, into: &list)
        case .lineStart, .lineEnd, .scalar, .anyExceptLineTerminator, .set:
            list.append(node)
            return true
        case .repetition(let inner, _, _, _):
            guard inner.isSingleScalar else { return false }
            list.append(node)
            return true
        case .lookaround(_, let behind, _):
            guard !behind else { return false }
            list.append(node)
            return true
        case .alternation(let alternatives):
            var scratch: [RegexNode] = []
            for alternative in alternatives where !flattenFixed(alternative, into: &scratch) { return false }
            list.append(node)
            return true
        default:
            return false
        }
    }

    /// Flattens an alternation branch made only of atoms with a fixed count (`0[1-9]`, `\d{2}`).
    private static func flattenFixed(_ node: RegexNode, into list: inout [RegexNode]) -> Bool {
        switch node {
        case .empty: return true
        case .sequence(let nodes):
            for child in nodes where !flattenFixed(child, into: &list) { return false }
            return true
        case .group(let inner, _): return flattenFixed(inner, into: &list)
        case .scalar, .anyExceptLineTerminator, .set:
            list.append(node)
            return true
        case .repetition(let inner, let minimum, let maximum, _):
            guard inner.isSingleScalar, minimum == maximum else { return false }
            list.append(node)
            return true
        default:
            return false
        }
    }


    /// Whether the pattern matches somewhere in `bytes`; nil when the step budget ran out (the
    /// caller then asks a matcher that can decide).
    func matches(_ bytes: Span<UInt8>) -> Bool? {
        switch shape {
        case .steps:
            if let unretainedDFA { return unretainedDFA.withObject { $0.matches(bytes) } }
        case .containsAtom: return containsMatch(steps[0], bytes)
        case .wholeRun: return wholeRunMatches(steps[1], bytes)
        }
        var budget = 100_000 + bytes.count * 1_000
        var start = 0
        while true {
            let found = run(0, mainCount, start, bytes, &budget)
            // A cut-short negative lookahead may have answered "yes" unproven: no answer stands.
            if budget < 0 { return nil }
            if found { return true }
            if anchoredAtStart || start >= bytes.count { return false }
            start += Self.length(ofScalarAt: start, bytes)
        }
    }

    /// Whether some code point of `bytes` matches the atom `step`.
    private func containsMatch(_ step: Step, _ bytes: Span<UInt8>) -> Bool {
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if Self.asciiMatches(step, byte) { return true }
                position += 1
            } else {
                if advanceNonASCII(step, position, bytes) != nil { return true }
                position += Self.length(ofScalarAt: position, bytes)
            }
        }
        return false
    }

    /// Whether `bytes` is `minimum...maximum` code points that all match the atom `step`.
    private func wholeRunMatches(_ step: Step, _ bytes: Span<UInt8>) -> Bool {
        var position = 0
        var count = 0
        let maximum = step.maximum
        while position < bytes.count {
            if count == maximum { return false }
            let byte = bytes[position]
            if byte < 0x80 {
                guard Self.asciiMatches(step, byte) else { return false }
                position += 1
            } else {
                guard let next = advanceNonASCII(step, position, bytes) else { return false }
                position = next
            }
            count += 1
        }
        return count >= step.minimum
    }

    /// Whether the ASCII `byte` matches the atom `step`.
    @inline(__always)
    private static func asciiMatches(_ step: Step, _ byte: UInt8) -> Bool {
        switch step.atom {
        case .scalar: return UInt32(byte) == step.scalar
        case .any: return byte != 0x0A && byte != 0x0D
        case .set:
            let member = byte < 64
                ? step.asciiLow & (1 << UInt64(byte)) != 0
                : step.asciiHigh & (1 << UInt64(byte &- 64)) != 0
            return member != step.negated
        }
    }

    @inline(__always)
    private static func length(ofScalarAt position: Int, _ bytes: Span<UInt8>) -> Int {
        let lead = bytes[position]
        if lead < 0x80 { return 1 }
        if lead < 0xE0 { return 2 }
        if lead < 0xF0 { return 3 }
        return 4
    }

    /// The position after one code point matching `step` at `position`, or nil.
    @inline(__always)
    private func advance(_ step: Step, _ position: Int, _ bytes: Span<UInt8>) -> Int? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        guard byte < 0x80 else { return advanceNonASCII(step, position, bytes) }
        return Self.asciiMatches(step, byte) ? position + 1 : nil
    }

    @inline(never)
    private func advanceNonASCII(_ step: Step, _ position: Int, _ bytes: Span<UInt8>) -> Int? {
        let lead = bytes[position]
        if lead < 0x80 { return Self.asciiMatches(step, lead) ? position + 1 : nil }
        let length = Self.length(ofScalarAt: position, bytes)
        guard position + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        switch step.atom {
        case .scalar: return value == step.scalar ? position + length : nil
        case .any: return value == 0x2028 || value == 0x2029 ? nil : position + length
        case .set:
            if step.extra < 0 { return step.negated ? position + length : nil }
            return extras[step.extra].contains(value) ? position + length : nil
        }
    }

    /// Runs the steps `first..<end` from `position`; true when they all match.
    private func run(_ first: Int, _ end: Int, _ position: Int, _ bytes: Span<UInt8>, _ budget: inout Int) -> Bool {
        var index = first
        var position = position
        while index < end {
            budget -= 1
            if budget < 0 { return false }
            let step = steps[index]
            switch step.kind {
            case .start:
                if position != 0 { return false }
            case .end:
                if position != bytes.count { return false }
            case .lookahead, .negativeLookahead:
                let found = run(step.innerStart, step.innerEnd, position, bytes, &budget)
                if found == (step.kind == .negativeLookahead) { return false }
            case .alternation:
                return alternate(step, index, end, position, bytes, &budget)
            case .atom:
                let minimum = step.minimum
                if minimum == step.maximum {
                    // A fixed count (`a`, `\d{4}`) never backtracks: walk it here.
                    for _ in 0..<minimum {
                        guard let next = advance(step, position, bytes) else { return false }
                        position = next
                    }
                } else {
                    return repeatAtom(step, index, end, position, bytes, &budget)
                }
            }
            index += 1
        }
        return true
    }

    /// Tries each branch of the alternation `step` in order, each followed by the rest of the list.
    private func alternate(_ step: Step, _ index: Int, _ end: Int, _ position: Int, _ bytes: Span<UInt8>, _ budget: inout Int) -> Bool {
        for branchIndex in step.innerStart..<step.innerEnd {
            let branch = branches[branchIndex]
            var current = position
            var matched = true
            var atomIndex = branch.start
            outer: while atomIndex < branch.end {
                let atom = steps[atomIndex]
                for _ in 0..<atom.minimum {
                    guard let next = advance(atom, current, bytes) else { matched = false; break outer }
                    current = next
                }
                atomIndex += 1
            }
            guard matched else { continue }
            if index + 1 == end || run(index + 1, end, current, bytes, &budget) { return true }
            if budget < 0 { return false }
        }
        return false
    }

    private func repeatAtom(_ step: Step, _ index: Int, _ end: Int, _ position: Int, _ bytes: Span<UInt8>, _ budget: inout Int) -> Bool {
        var count = 0
        var current = position
        let minimum = step.minimum
        let maximum = step.maximum
        while count < minimum {
            guard let next = advance(step, current, bytes) else { return false }
            current = next
            count += 1
        }
        if !step.greedy {
            while true {
                if run(index + 1, end, current, bytes, &budget) { return true }
                if budget < 0 { return false }
                guard count < maximum, let next = advance(step, current, bytes) else { return false }
                current = next
                count += 1
            }
        }
        let minimumEnd = current
        // ASCII run of a set or `.`: a tight loop on bytes, no decoding, no calls.
        if step.atom != .scalar {
            let isSet = step.atom == .set
            let low = step.asciiLow
            let high = step.asciiHigh
            let negated = step.negated
            while count < maximum, current < bytes.count {
                let byte = bytes[current]
                guard byte < 0x80 else { break }
                let member = isSet
                    ? (byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0) != negated
                    : byte != 0x0A && byte != 0x0D
                guard member else { break }
                current += 1
                count += 1
            }
        }
        while count < maximum, let next = advance(step, current, bytes) {
            current = next
            count += 1
        }
        // The rest is tried from the longest run down; positions step back one code point at a time.
        if index + 1 == end { return true }
        let nextByte = step.nextByte
        while true {
            if nextByte < 0 || (current < bytes.count && Int16(bytes[current]) == nextByte) {
                if run(index + 1, end, current, bytes, &budget) { return true }
            }
            if budget < 0 || current == minimumEnd { return false }
            current -= 1
            while current > minimumEnd && bytes[current] & 0xC0 == 0x80 { current -= 1 }
        }
    }
}
