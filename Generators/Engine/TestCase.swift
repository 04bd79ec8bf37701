/// Why a test case stopped drawing before its property could run.
///
/// Generators throw these from ``TestCase`` draws; the property runner turns them into a
/// discarded case (never a failure of the property).
public enum TestCaseStop: Error, Sendable, Equatable, CustomStringConvertible {
    /// The case drew more than its choice budget (runaway recursion or huge collections).
    case overrun(limit: Int)
    /// A generator or the property rejected the case, with a reason naming who and why.
    case rejected(String)

    /// A one-line human-readable explanation.
    public var description: String {
        switch self {
        case .overrun(let limit): "the test case drew more than \(limit) choices"
        case .rejected(let reason): reason
        }
    }
}

/// One test case: the source of every random choice a generator makes, and the record of them.
///
/// A test case *is* its choice sequence. Every draw asks for a whole number in `0...n`
/// (``choice(upTo:)``) and appends the answer to ``choices``. While a *prefix* is being
/// replayed the answers come from it; past the prefix they come from the pseudo-random
/// generator when generating, or are `0` (the simplest answer) when replaying for the
/// shrinker. A replayed answer larger than the current `n` (the prefix belonged to a
/// different path through the generators) is clamped to `0`, the simplest allowed value, so
/// every sequence of numbers decodes to *some* valid value. Generators are written so that
/// smaller choices mean simpler values; that is all the shrinker needs to shrink through
/// `map`, `flatMap`, `filter` and arbitrary code.
///
/// Test cases are created by the property runner (or ``Gen/sample(seed:size:)``); custom
/// generators only draw from them, through the `inout` case their draw function is handed:
///
/// ```swift
/// let digit = Gen<Int> { testCase in Int(try testCase.choice(upTo: 9)) }
/// ```
///
/// A test case is a noncopyable value passed `inout` down the generators, never a shared
/// object: a copy could record choices the runner never sees, and exclusive `inout` access is
/// checked by the compiler, so a draw costs no runtime exclusivity check and no reference
/// counting.
///
/// Invariant: ``choices`` holds exactly the answers given so far, in draw order, and never
/// more than ``maxChoices`` of them. A draw is amortised O(1): the choices live in an array
/// reserved up front, so drawing allocates only when a case outgrows it. Replays for the
/// shrinker also record the structure of the draw (each choice's bound and integer shape, and
/// the spans of collection elements, alternatives and recursive generators) for the shrink passes.
public struct TestCase: ~Copyable {
    /// The choices made so far, in draw order.
    public var choices: [UInt64] { state.recorded }
    /// The number of choices made so far.
    public var choiceCount: Int { state.recorded.count }
    /// The size parameter (0 through the configured maximum, 100 by default) that
    /// size-driven generators use to scale collection lengths; it grows over a run.
    public internal(set) var size: Int
    /// The most choices this case may make before it stops with ``TestCaseStop/overrun(limit:)``.
    public let maxChoices: Int

    /// The answers to replay first.
    @usableFromInline let prefix: [UInt64]
    /// Whether draws past the prefix come from the pseudo-random generator (generation) or are
    /// `0` (shrinker replays).
    @usableFromInline let generatesFresh: Bool
    /// Whether each choice's bound and integer shape and the draw's spans are recorded
    /// (shrinker replays only).
    @usableFromInline let recordsStructure: Bool
    /// Everything a draw changes.
    @usableFromInline var state: DrawState
    /// Reusable UTF-8 bytes for building strings from character classes.
    var scratch: [UInt8] = []

    /// Creates a case that draws from a pseudo-random generator seeded with `seed`.
    public init(seed: UInt64, size: Int = 100, maxChoices: Int = 8192) {
        self.init(random: Xoshiro256StarStar(seed: seed), size: size, maxChoices: maxChoices)
    }

    /// Creates a case that draws from `random` after replaying `prefix`.
    public init(prefix: [UInt64] = [], random: Xoshiro256StarStar, size: Int = 100, maxChoices: Int = 8192) {
        self.prefix = prefix
        generatesFresh = true
        recordsStructure = false
        self.size = size
        self.maxChoices = Swift.max(0, maxChoices)
        state = DrawState(random: random)
        state.recorded.reserveCapacity(Swift.min(self.maxChoices, Swift.max(256, prefix.count + 16)))
    }

    /// Creates a case that replays `choices` and answers `0` (the simplest value) past their end.
    public init(replaying choices: [UInt64], size: Int = 100, maxChoices: Int = 8192) {
        prefix = choices
        generatesFresh = false
        recordsStructure = true
        self.size = size
        self.maxChoices = Swift.max(0, maxChoices)
        state = DrawState(random: Xoshiro256StarStar(seed: 0))
        let capacity = Swift.min(self.maxChoices, choices.count + 16)
        state.recorded.reserveCapacity(capacity)
        state.bounds.reserveCapacity(capacity)
        state.shapes.reserveCapacity(capacity)
    }

    /// Starts a new fresh case in this value, keeping its buffers (used by the runner).
    mutating func restart(random: Xoshiro256StarStar, size: Int) {
        state.restart(random: random)
        self.size = size
    }

    /// Whether the next draw will come from the pseudo-random generator (not a replayed prefix).
    ///
    /// Generators use it to plan biased values (bounds, special values) before drawing.
    @inlinable
    public var isDrawingFresh: Bool {
        generatesFresh && state.recorded.count >= prefix.count
    }

    /// Draws a whole number in `0...n`, uniformly when drawing fresh.
    ///
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable @inline(__always)
    public mutating func choice(upTo n: UInt64) throws -> UInt64 {
        try choice(upTo: n, preferring: nil)
    }

    /// Draws a whole number in `0...n`, answering `planned` when drawing fresh and it fits.
    ///
    /// Biased generators compute a planned value (a boundary, a special value) and record
    /// it through this method, so the bias costs nothing at replay and shrinks like any choice.
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable @inline(__always)
    public mutating func choice(upTo n: UInt64, preferring planned: UInt64?) throws -> UInt64 {
        let position = state.recorded.count
        if position >= maxChoices { throw TestCaseStop.overrun(limit: maxChoices) }
        let value: UInt64
        if position < prefix.count {
            let replayed = prefix[position]
            value = replayed <= n ? replayed : 0
        } else if generatesFresh {
            if let planned, planned <= n {
                value = planned
            } else {
                value = state.random.bounded(by: n)
            }
        } else {
            value = 0
        }
        state.recorded.append(value)
        if recordsStructure { recordBound(n) }
        return value
    }

    /// Records the bound of the choice just made (shrinker replays only).
    @usableFromInline @inline(never)
    mutating func recordBound(_ n: UInt64) {
        state.bounds.append(n)
        state.shapes.append(nil)
    }

    /// Draws a Boolean that is `true` with probability `probability` when drawing fresh.
    ///
    /// Recorded as a choice in `0...1`; `false` (0) is the simpler answer.
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable @inline(__always)
    public mutating func weighted(_ probability: Double) throws -> Bool {
        let planned: UInt64? = isDrawingFresh ? (state.random.unitDouble() < probability ? 1 : 0) : nil
        return try choice(upTo: 1, preferring: planned) == 1
    }

    /// Runs `body` with the pseudo-random generator when drawing fresh; returns `nil` otherwise.
    ///
    /// Use it to plan a value for ``choice(upTo:preferring:)``; the generator's own draws are
    /// not recorded, only the choices are.
    public mutating func planning<R>(_ body: (inout Xoshiro256StarStar) -> R) -> R? {
        guard isDrawingFresh else { return nil }
        return body(&state.random)
    }

    /// Draws a value from `gen`, recording its choices in this case.
    public mutating func draw<T>(_ gen: Gen<T>) throws -> T {
        try gen.draw(&self)
    }

    /// Stops the case as invalid, with `reason` explaining which generator or assumption rejected it.
    ///
    /// `mutating` because it ends the case's draws (and because Swift 6.3 warns "will never be
    /// executed" after a non-mutating `Never` call on an `inout` noncopyable value).
    public mutating func reject(_ reason: String) throws -> Never {
        throw TestCaseStop.rejected(reason)
    }

    /// The bound `n` of every choice, in draw order (shrinker replays only).
    var bounds: [UInt64] { state.bounds }
    /// The integer shape of every choice that encodes an integer, `nil` for the others (shrinker replays only).
    var shapes: [IntegerShape?] { state.shapes }
    /// The spans drawn, in the order they were completed (shrinker replays only).
    var spans: [Span] { state.spans }

    /// How deep deferred generators are nested at this point of the draw.
    var depth: Int {
        get { state.depth }
        set { state.depth = newValue }
    }

    /// Records a completed span (shrinker replays only; free otherwise).
    ///
    /// `start` is the index of the span's first choice, `contentStart` the first choice of its
    /// own draws (after an element's "another?" choice), and the span ends at the current choice.
    @usableFromInline @inline(__always)
    mutating func recordSpan(_ kind: Span.Kind, label: UInt64 = 0, start: Int, contentStart: Int) {
        if recordsStructure { appendSpan(kind, label: label, start: start, contentStart: contentStart) }
    }

    @usableFromInline @inline(never)
    mutating func appendSpan(_ kind: Span.Kind, label: UInt64, start: Int, contentStart: Int) {
        state.spans.append(Span(kind: kind, label: label, start: start, contentStart: contentStart, end: state.recorded.count))
    }

    /// Marks the last choice as an integer index in `shape` (shrinker replays only; free otherwise).
    @inline(__always)
    mutating func noteIntegerShape(_ shape: IntegerShape) {
        if recordsStructure { state.noteIntegerShape(shape) }
    }

    /// Remembers an integer drawn fresh, so later draws of this case may repeat it.
    mutating func noteDrawnInteger(_ value: UInt64, isSigned: Bool) {
        state.recentIntegers.remember(value, isSigned: isSigned)
    }

    /// One time in eight, when this case has drawn integers before, picks one of the last four to
    /// draw again, or one time in four of those a neighbour of it (one or two above or below): `nil`
    /// otherwise, or when the pick does not fit `range` (both in the order-preserving encoding of
    /// a type with the given signedness).
    ///
    /// Bugs that need equal or adjacent values (a duplicate in a list, two equal arguments, an
    /// off-by-one between two numbers) are rare under independent uniform draws; repeating
    /// earlier values finds them in the first hundred cases.
    mutating func repeatedInteger(in range: ClosedRange<UInt64>, isSigned: Bool) -> UInt64? {
        state.repeatedInteger(in: range, isSigned: isSigned)
    }
}

/// The mutable state of a test case: the answers, the pseudo-random generator, and what
/// replays record for the shrinker.
@usableFromInline
struct DrawState {
    /// The answers given so far.
    @usableFromInline var recorded: [UInt64] = []
    /// The pseudo-random generator that answers fresh draws.
    @usableFromInline var random: Xoshiro256StarStar
    /// The bound of every choice (shrinker replays only).
    @usableFromInline var bounds: [UInt64] = []
    /// The integer shape of every choice, `nil` for choices that do not encode an integer (shrinker replays only).
    @usableFromInline var shapes: [IntegerShape?] = []
    /// The spans, in completion order (shrinker replays only).
    var spans: [Span] = []
    /// The last integers drawn fresh: the ones repeated integers come from.
    var recentIntegers = RecentIntegers()
    /// How deep deferred generators are nested.
    var depth = 0

    init(random: Xoshiro256StarStar) {
        self.random = random
    }

    mutating func restart(random: Xoshiro256StarStar) {
        recorded.removeAll(keepingCapacity: true)
        recentIntegers = RecentIntegers()
        self.random = random
        depth = 0
    }

    mutating func noteIntegerShape(_ shape: IntegerShape) {
        if !shapes.isEmpty { shapes[shapes.count - 1] = shape }
    }

    mutating func repeatedInteger(in range: ClosedRange<UInt64>, isSigned: Bool) -> UInt64? {
        guard recentIntegers.count > 0 else { return nil }
        let roll = random.next()
        guard roll & 7 == 0 else { return nil }
        let pick = recentIntegers[Int(random.bounded(by: UInt64(Swift.min(recentIntegers.count, 4) - 1)))]
        guard pick.isSigned == isSigned else { return nil }
        // One repeat in four is a neighbour instead: one or two above or below.
        var value = pick.value
        if roll & 0x18 == 0 {
            let offset: UInt64 = roll & 0x20 == 0 ? 1 : 2
            value = roll & 0x40 == 0 ? value &+ offset : value &- offset
        }
        return range.contains(value) ? value : nil
    }
}

/// A stretch of a test case's choices that one generator drew: a collection, one element of it,
/// one pick among alternatives, or one level of a recursive generator.
///
/// Spans are what the structural shrink passes work on: they delete elements, replace a node
/// by one of its descendants, simplify a span's contents as a whole, and sort elements.
/// Invariant: `start <= contentStart <= end`; spans nest (two spans are disjoint or one
/// contains the other), because each is recorded when its generator returns.
@usableFromInline
struct Span: Hashable, Sendable {
    /// What drew the span.
    @usableFromInline
    enum Kind: UInt8, Hashable, Sendable {
        /// A whole collection, from its first element (or "another?" choice) to its last choice.
        case collection
        /// One element of a collection; `contentStart` follows its "another?" choice, if any.
        case element
        /// One pick of `oneOf` or `frequency`: the index choice and the chosen generator's draws.
        case alternative
        /// One level of a deferred (recursive) generator.
        case deferred
    }

    /// What drew the span.
    var kind: Kind
    /// Identifies the generator shape, so that spans of the same kind of node can replace each other.
    var label: UInt64
    /// The index of the span's first choice.
    var start: Int
    /// The index of the first choice of the span's own draws (after an "another?" choice).
    var contentStart: Int
    /// The index after the span's last choice.
    var end: Int
}

/// The last four integers a test case drew fresh, in their generators' order-preserving encoding
/// with the signedness of their type: four stored fields rather than an array, so remembering
/// one costs no allocation or uniqueness check on the hot path of generation.
struct RecentIntegers {
    private var first: (value: UInt64, isSigned: Bool) = (0, false)
    private var second: (value: UInt64, isSigned: Bool) = (0, false)
    private var third: (value: UInt64, isSigned: Bool) = (0, false)
    private var fourth: (value: UInt64, isSigned: Bool) = (0, false)
    /// How many integers were remembered (the last four are kept).
    private(set) var count = 0

    /// Remembers `value`, forgetting the oldest of four.
    mutating func remember(_ value: UInt64, isSigned: Bool) {
        switch count & 3 {
        case 0: first = (value, isSigned)
        case 1: second = (value, isSigned)
        case 2: third = (value, isSigned)
        default: fourth = (value, isSigned)
        }
        count += 1
    }

    /// One of the remembered integers, `0` to `3` (fewer when fewer were remembered).
    subscript(slot: Int) -> (value: UInt64, isSigned: Bool) {
        switch slot & 3 {
        case 0: first
        case 1: second
        case 2: third
        default: fourth
        }
    }
}
