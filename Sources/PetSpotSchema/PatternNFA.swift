/// A Thompson automaton for every pattern without backreferences or lookarounds, simulated
/// state-set by state-set over the UTF-8 bytes (no backtracking).
///
/// Without backreferences nothing a match captured can change what else matches, and without
/// lookarounds every assertion depends only on the position, so whether the pattern matches
/// somewhere is plain language membership: the simulation decides it exactly, in time
/// proportional to the text times the automaton's size, whatever the pattern's nesting (where
/// the backtracker would take exponential time on `(a+)+c`). Laziness and ECMAScript's rule
/// against empty loop iterations change which match is found, never whether one exists.
final class PatternNFA: Sendable {
    /// One instruction of the automaton.
    private enum Instruction: Sendable {
        /// Consume one code point matching the atom, then go to `next`.
        case consume(Atom, next: Int)
        /// Continue at both targets.
        case split(Int, Int)
        case jump(Int)
        /// Continue at `next` when the position satisfies the assertion.
        case assert(Assertion, next: Int)
        case accept
    }

    private enum Atom: Sendable {
        case scalar(UInt32)
        case anyExceptLineTerminator
        case set(ScalarSet)

        func matches(_ scalar: UInt32) -> Bool {
            switch self {
            case .scalar(let expected): scalar == expected
            case .anyExceptLineTerminator: scalar != 0x0A && scalar != 0x0D && scalar != 0x2028 && scalar != 0x2029
            case .set(let set): set.contains(scalar)
            }
        }
    }

    private enum Assertion: Sendable {
        case start, end, wordBoundary, notWordBoundary
    }

    private let program: [Instruction]
    private let anchoredAtStart: Bool
    /// The most instruction visits a match may need (instructions × positions): past it the
    /// search is undecided rather than minutes long (a huge counted repeat on a long text).
    static let workLimit = 100_000_000

    /// Whether matching a text of `byteCount` bytes stays within ``workLimit``.
    func fitsWorkLimit(byteCount: Int) -> Bool {
        program.count <= Self.workLimit / (byteCount + 1)
    }
    /// Automata larger than this keep the backtracking matcher (huge counted repeats).
    private static let maximumInstructions = 20_000

    /// The automaton for `root`, or nil when the pattern has a backreference or a lookaround,
    /// or would need too many instructions.
    init?(_ root: RegexNode) {
        var builder = Builder()
        guard let start = builder.compile(root, then: 0) else { return nil }
        builder.program[0] = .accept
        // Instruction 0 is `accept`; the entry point is moved to the end so `start` is stable.
        builder.program.append(.jump(start))
        guard builder.program.count <= Self.maximumInstructions else { return nil }
        program = builder.program
        anchoredAtStart = root.isAnchoredAtStart
    }

    /// Builds the program back to front: each node is compiled with its continuation known.
    private struct Builder {
        var program: [Instruction] = [.accept]

        mutating func emit(_ instruction: Instruction) -> Int {
            program.append(instruction)
            return program.count - 1
        }

        /// The entry of `node` followed by the instruction at `next`; nil when not eligible.
        mutating func compile(_ node: RegexNode, then next: Int) -> Int? {
            guard program.count <= PatternNFA.maximumInstructions else { return nil }
            switch node {
            case .empty: return next
            case .scalar(let value): return emit(.consume(.scalar(value), next: next))
            case .anyExceptLineTerminator: return emit(.consume(.anyExceptLineTerminator, next: next))
            case .set(let set): return emit(.consume(.set(set), next: next))
            case .lineStart: return emit(.assert(.start, next: next))
            case .lineEnd: return emit(.assert(.end, next: next))
            case .wordBoundary(let negated): return emit(.assert(negated ? .notWordBoundary : .wordBoundary, next: next))
            case .group(let inner, _): return compile(inner, then: next)
            case .sequence(let nodes):
                var entry = next
                for child in nodes.reversed() {
                    guard let compiled = compile(child, then: entry) else { return nil }
                    entry = compiled
                }
                return entry
            case .alternation(let alternatives):
                var entries: [Int] = []
                for alternative in alternatives {
                    guard let entry = compile(alternative, then: next) else { return nil }
                    entries.append(entry)
                }
                var entry = entries[entries.count - 1]
                for other in entries.dropLast().reversed() { entry = emit(.split(other, entry)) }
                return entry
            case .repetition(let inner, let minimum, let maximum, _):
                var entry = next
                if maximum == Int.max {
                    // loop: split(body, next); body ends by jumping back to loop.
                    let loop = emit(.jump(0))
                    guard let body = compile(inner, then: loop) else { return nil }
                    program[loop] = .split(body, next)
                    entry = loop
                } else {
                    guard maximum - minimum <= PatternNFA.maximumInstructions else { return nil }
                    for _ in 0..<(maximum - minimum) {
                        guard let body = compile(inner, then: entry) else { return nil }
                        entry = emit(.split(body, next))
                    }
                }
                guard minimum <= PatternNFA.maximumInstructions else { return nil }
                for _ in 0..<minimum {
                    guard let body = compile(inner, then: entry) else { return nil }
                    entry = body
                }
                return entry
            case .lookaround, .backreference, .namedBackreference:
                return nil
            }
        }
    }

    /// Whether the pattern matches somewhere in `bytes` (valid UTF-8).
    func matches(_ bytes: Span<UInt8>) -> Bool {
        let entry = program.count - 1
        var current = StateSet(capacity: program.count)
        var next = StateSet(capacity: program.count)
        var stack: [Int] = []
        stack.reserveCapacity(program.count)
        var position = 0
        var previousIsWord = false
        while true {
            let (scalar, length) = position < bytes.count ? Self.decode(bytes, position) : (0, 0)
            let context = Context(
                atStart: position == 0, atEnd: position == bytes.count, previousIsWord: previousIsWord,
                nextIsWord: length > 0 && ScalarPredicate.isWord(scalar))
            if position == 0 || !anchoredAtStart {
                if addClosure(entry, context, &current, &stack) { return true }
            }
            if position == bytes.count || (current.isEmpty && anchoredAtStart) { return false }
            next.removeAll()
            let end = position + length
            let after = Context(
                atStart: false, atEnd: end == bytes.count, previousIsWord: context.nextIsWord,
                nextIsWord: end < bytes.count && ScalarPredicate.isWord(UInt32(bytes[end])))
            for index in 0..<current.count {
                if case .consume(let atom, let target) = program[current.states[index]], atom.matches(scalar) {
                    if addClosure(target, after, &next, &stack) { return true }
                }
            }
            swap(&current, &next)
            previousIsWord = context.nextIsWord
            position += length
        }
    }

    /// What the assertions need to know about a position.
    private struct Context {
        var atStart: Bool
        var atEnd: Bool
        var previousIsWord: Bool
        var nextIsWord: Bool
    }

    /// Adds `state` and everything reachable from it without consuming input to `set`; true
    /// when that reaches `accept`. `stack` is scratch space, reused across calls.
    private func addClosure(_ state: Int, _ context: Context, _ set: inout StateSet, _ stack: inout [Int]) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(state)
        while let top = stack.popLast() {
            guard set.insert(top) else { continue }
            switch program[top] {
            case .accept: return true
            case .consume: break
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .assert(let assertion, let target):
                let holds = switch assertion {
                case .start: context.atStart
                case .end: context.atEnd
                case .wordBoundary: context.previousIsWord != context.nextIsWord
                case .notWordBoundary: context.previousIsWord == context.nextIsWord
                }
                if holds { stack.append(target) }
            }
        }
        return false
    }

    /// The code point at `position` (a boundary) and its length in bytes.
    private static func decode(_ bytes: Span<UInt8>, _ position: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard position + length <= bytes.count else { return (0xFFFD, bytes.count - position) }
        var value = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        return (value, length)
    }

    /// A set of states in insertion order with O(1) membership (a sparse set).
    private struct StateSet {
        private(set) var states: [Int]
        private var slot: [Int]
        private(set) var count = 0

        init(capacity: Int) {
            states = Array(repeating: 0, count: capacity)
            slot = Array(repeating: 0, count: capacity)
        }

        var isEmpty: Bool { count == 0 }

        /// Inserts `state`; false when it was already there.
        mutating func insert(_ state: Int) -> Bool {
            let index = slot[state]
            if index < count && states[index] == state { return false }
            slot[state] = count
            states[count] = state
            count += 1
            return true
        }

        mutating func removeAll() { count = 0 }
    }
}
