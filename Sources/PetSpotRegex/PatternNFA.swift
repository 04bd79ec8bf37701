/// The linear-time matcher: a Thompson automaton for every pattern without backreferences or
/// lookarounds, run over the UTF-8 bytes without backtracking.
///
/// Without backreferences nothing a match captured can change what else matches, and without
/// lookarounds every assertion depends only on the position, so whether the pattern matches
/// somewhere is plain language membership: the automaton decides it exactly, in time
/// proportional to the text, whatever the pattern's nesting (where the backtracker would take
/// exponential time on `(a+)+c`). Laziness and ECMAScript's rule against empty loop iterations
/// change which match is found, never whether one exists.
///
/// The automaton runs in its deterministic form (``PatternAutomaton``, one table lookup per code
/// point) when subset construction keeps that small, and state-set by state-set otherwise (huge
/// counted repeats, Unicode property classes).
struct PatternNFA: Sendable {
    /// One instruction of the automaton.
    enum Instruction: Sendable {
        /// Consume one code point matching `atoms[atom]`, then go to `next`.
        case consume(atom: Int, next: Int)
        /// Continue at both targets.
        case split(Int, Int)
        case jump(Int)
        /// Continue at `next` when the position satisfies the assertion.
        case assert(Assertion, next: Int)
        case accept
    }

    /// What a `consume` instruction accepts: one code point.
    enum Atom: Hashable, Sendable {
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

    enum Assertion: Sendable {
        case start, end, wordBoundary, notWordBoundary
    }

    /// What the assertions need to know about a position.
    struct Context {
        var atStart: Bool
        var atEnd: Bool
        var previousIsWord: Bool
        var nextIsWord: Bool
    }

    /// The instructions; 0 is `accept`.
    let program: [Instruction]
    /// The distinct atoms of the `consume` instructions.
    let atoms: [Atom]
    /// Where a match attempt starts.
    let entry: Int
    /// Whether a match can only start at position 0 (`^…`).
    let anchoredAtStart: Bool
    /// Whether an assertion reads the neighbouring code points (`\b`, `\B`).
    let readsWordBoundaries: Bool
    /// The deterministic form, when small enough (set once, at the end of `init`).
    private var automaton: PatternAutomaton?

    /// The most instruction visits a state-set run may need (instructions × positions): past it
    /// the search is undecided rather than minutes long (a huge counted repeat on a long text).
    static let workLimit = 100_000_000
    /// Automata larger than this keep the backtracking matcher (huge counted repeats).
    private static let maximumInstructions = 20_000

    /// The automaton for `root`, or nil when the pattern has a backreference or a lookaround,
    /// or would need too many instructions; `allowsDeterministicForm: false` keeps the state-set
    /// run (to compare the two).
    init?(_ root: RegexNode, allowsDeterministicForm: Bool = true) {
        var builder = Builder()
        guard let start = builder.compile(root, then: 0) else { return nil }
        guard builder.program.count <= Self.maximumInstructions else { return nil }
        program = builder.program
        atoms = builder.atoms
        entry = start
        anchoredAtStart = root.isAnchoredAtStart
        readsWordBoundaries = builder.program.contains {
            if case .assert(let assertion, _) = $0 { assertion == .wordBoundary || assertion == .notWordBoundary } else { false }
        }
        automaton = nil
        if allowsDeterministicForm { automaton = PatternAutomaton(self) }
    }

    /// Whether matching runs the deterministic table.
    var isDeterministic: Bool { automaton != nil }

    /// Whether matching a text of `byteCount` bytes stays within ``workLimit`` (the table always does).
    func fitsWorkLimit(byteCount: Int) -> Bool {
        automaton != nil || program.count <= Self.workLimit / (byteCount + 1)
    }

    /// Builds the program back to front: each node is compiled with its continuation known.
    private struct Builder {
        var program: [Instruction] = [.accept]
        var atoms: [Atom] = []
        var atomIndex: [Atom: Int] = [:]

        mutating func emit(_ instruction: Instruction) -> Int {
            program.append(instruction)
            return program.count - 1
        }

        mutating func consume(_ atom: Atom, then next: Int) -> Int {
            let index: Int
            if let known = atomIndex[atom] {
                index = known
            } else {
                index = atoms.count
                atoms.append(atom)
                atomIndex[atom] = index
            }
            return emit(.consume(atom: index, next: next))
        }

        /// The entry of `node` followed by the instruction at `next`; nil when not eligible.
        mutating func compile(_ node: RegexNode, then next: Int) -> Int? {
            guard program.count <= PatternNFA.maximumInstructions else { return nil }
            switch node {
            case .empty: return next
            case .scalar(let value): return consume(.scalar(value), then: next)
            case .anyExceptLineTerminator: return consume(.anyExceptLineTerminator, then: next)
            case .set(let set): return consume(.set(set), then: next)
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
        if let automaton { return automaton.matches(bytes) }
        return runStateSets(bytes)
    }

    /// The state-set run: every position's live states at once.
    private func runStateSets(_ bytes: Span<UInt8>) -> Bool {
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
                if case .consume(let atom, let target) = program[current.states[index]], atoms[atom].matches(scalar) {
                    if addClosure(target, after, &next, &stack) { return true }
                }
            }
            swap(&current, &next)
            previousIsWord = context.nextIsWord
            position += length
        }
    }

    /// Adds `state` and everything reachable from it without consuming input to `set`; true
    /// when that reaches `accept` (the closure is then incomplete). `stack` is scratch space,
    /// reused across calls.
    func addClosure(_ state: Int, _ context: Context, _ set: inout StateSet, _ stack: inout [Int]) -> Bool {
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
    @inline(__always)
    static func decode(_ bytes: Span<UInt8>, _ position: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (lead, 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard position + length <= bytes.count else { return (0xFFFD, bytes.count - position) }
        var value = lead & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        return (value, length)
    }

    /// A set of states in insertion order with O(1) membership (a sparse set).
    struct StateSet {
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
