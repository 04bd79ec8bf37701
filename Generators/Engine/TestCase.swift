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
/// generators only draw from them:
///
/// ```swift
/// let digit = Gen<Int> { testCase in Int(try testCase.choice(upTo: 9)) }
/// ```
///
/// Choices are stored in one preallocated `[UInt64]`; a draw is O(1) and allocation-free.
public final class TestCase {
    /// The choices made so far, in draw order.
    public var choices: [UInt64] {
        Array(UnsafeBufferPointer(start: hot.pointee.buffer, count: hot.pointee.count))
    }
    /// The number of choices made so far.
    public var choiceCount: Int { hot.pointee.count }
    /// The size parameter (0 through the configured maximum, 100 by default) that
    /// size-driven generators use to scale collection lengths; it grows over a run.
    public internal(set) var size: Int
    /// The most choices this case may make before it stops with ``TestCaseStop/overrun(limit:)``.
    public let maxChoices: Int

    /// The mutable per-draw state, kept behind a pointer so that draws pay no exclusivity checks.
    @usableFromInline let hot: UnsafeMutablePointer<_TestCaseState>
    @usableFromInline let prefix: [UInt64]
    @usableFromInline let generatesFresh: Bool
    /// Whether element spans are recorded (replays for the shrinker only).
    let tracksSpans: Bool
    /// Collection elements as flattened triples of choice indices: start (the "another?"
    /// choice, if any), start of the element's own draws, end.
    var spans: [Int] { hot.pointee.spans }
    /// Reusable UTF-8 bytes for building strings from character classes.
    var scratch: [UInt8] = []

    /// Creates a case that draws from a pseudo-random generator seeded with `seed`.
    public convenience init(seed: UInt64, size: Int = 100, maxChoices: Int = 8192) {
        self.init(random: Xoshiro256StarStar(seed: seed), size: size, maxChoices: maxChoices)
    }

    /// Creates a case that draws from `random` after replaying `prefix`.
    public init(prefix: [UInt64] = [], random: Xoshiro256StarStar, size: Int = 100, maxChoices: Int = 8192) {
        self.prefix = prefix
        self.generatesFresh = true
        self.tracksSpans = false
        self.size = size
        self.maxChoices = Swift.max(0, maxChoices)
        hot = .allocate(capacity: 1)
        hot.initialize(to: _TestCaseState(random: random, capacity: Swift.min(self.maxChoices, Swift.max(256, prefix.count + 16))))
    }

    /// Creates a case that replays `choices` and answers `0` (the simplest value) past their end.
    public init(replaying choices: [UInt64], size: Int = 100, maxChoices: Int = 8192) {
        self.prefix = choices
        self.generatesFresh = false
        self.tracksSpans = true
        self.size = size
        self.maxChoices = Swift.max(0, maxChoices)
        hot = .allocate(capacity: 1)
        hot.initialize(to: _TestCaseState(
            random: Xoshiro256StarStar(seed: 0), capacity: Swift.min(self.maxChoices, Swift.max(16, choices.count + 16))))
    }

    deinit {
        hot.pointee.buffer.deallocate()
        hot.deinitialize(count: 1)
        hot.deallocate()
    }

    /// Starts a new fresh case in this object, keeping its buffers (used by the runner).
    func restart(random: Xoshiro256StarStar, size: Int) {
        hot.pointee.count = 0
        hot.pointee.random = random
        self.size = size
        hot.pointee.spans.removeAll(keepingCapacity: true)
    }

    /// Records a collection element's span (replays for the shrinker only).
    @inline(__always)
    func recordSpan(start: Int, contentStart: Int) {
        guard tracksSpans else { return }
        let end = hot.pointee.count
        hot.pointee.spans.append(start)
        hot.pointee.spans.append(contentStart)
        hot.pointee.spans.append(end)
    }

    /// Whether the next draw will come from the pseudo-random generator (not a replayed prefix).
    ///
    /// Generators use it to plan biased values (bounds, special values) before drawing.
    @inlinable
    public var isDrawingFresh: Bool {
        generatesFresh && hot.pointee.count >= prefix.count
    }

    /// Draws a whole number in `0...n`, uniformly when drawing fresh.
    ///
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable
    public func choice(upTo n: UInt64) throws -> UInt64 {
        try choice(upTo: n, preferring: nil)
    }

    /// Draws a whole number in `0...n`, answering `planned` when drawing fresh and it fits.
    ///
    /// Biased generators compute a planned value (a boundary, a special value) and record
    /// it through this method, so the bias costs nothing at replay and shrinks like any choice.
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable
    public func choice(upTo n: UInt64, preferring planned: UInt64?) throws -> UInt64 {
        let state = hot
        let position = state.pointee.count
        if position >= maxChoices { throw TestCaseStop.overrun(limit: maxChoices) }
        let value: UInt64
        if position < prefix.count {
            let replayed = prefix[position]
            value = replayed <= n ? replayed : 0
        } else if generatesFresh {
            if let planned, planned <= n {
                value = planned
            } else {
                value = state.pointee.random.bounded(by: n)
            }
        } else {
            value = 0
        }
        if position == state.pointee.capacity { state.pointee.grow(limit: maxChoices) }
        state.pointee.buffer[position] = value
        state.pointee.count = position + 1
        return value
    }

    /// Draws a Boolean that is `true` with probability `probability` when drawing fresh.
    ///
    /// Recorded as a choice in `0...1`; `false` (0) is the simpler answer.
    /// - Throws: ``TestCaseStop/overrun(limit:)`` when the choice budget is used up.
    @inlinable
    public func weighted(_ probability: Double) throws -> Bool {
        let planned: UInt64? = isDrawingFresh ? (hot.pointee.random.unitDouble() < probability ? 1 : 0) : nil
        return try choice(upTo: 1, preferring: planned) == 1
    }

    /// Runs `body` with the pseudo-random generator when drawing fresh; returns `nil` otherwise.
    ///
    /// Use it to plan a value for ``choice(upTo:preferring:)``; the generator's own draws are
    /// not recorded, only the choices are.
    @inlinable
    public func planning<R>(_ body: (inout Xoshiro256StarStar) -> R) -> R? {
        isDrawingFresh ? body(&hot.pointee.random) : nil
    }

    /// Draws a value from `gen`, recording its choices in this case.
    @inlinable
    public func draw<T>(_ gen: Gen<T>) throws -> T {
        try gen.draw(self)
    }

    /// Stops the case as invalid, with `reason` explaining which generator or assumption rejected it.
    public func reject(_ reason: String) throws -> Never {
        throw TestCaseStop.rejected(reason)
    }
}

/// The hot, mutable state of a test case: the choice buffer and the pseudo-random generator.
@usableFromInline
struct _TestCaseState {
    @usableFromInline var buffer: UnsafeMutablePointer<UInt64>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    @usableFromInline var random: Xoshiro256StarStar
    var spans: [Int] = []

    init(random: Xoshiro256StarStar, capacity: Int) {
        self.random = random
        self.capacity = Swift.max(1, capacity)
        buffer = .allocate(capacity: self.capacity)
    }

    /// Doubles the buffer (up to `limit` choices), keeping the recorded choices.
    @usableFromInline
    mutating func grow(limit: Int) {
        let newCapacity = Swift.max(1, Swift.min(Swift.max(limit, capacity + 1), capacity * 2))
        let newBuffer = UnsafeMutablePointer<UInt64>.allocate(capacity: newCapacity)
        newBuffer.initialize(from: buffer, count: count)
        buffer.deallocate()
        buffer = newBuffer
        capacity = newCapacity
    }
}
