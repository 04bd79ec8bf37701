extension Gen where Value: FixedWidthInteger & Sendable {
    /// A generator of integers in `range` that shrinks toward `target`.
    ///
    /// The value is recorded as one choice, its index in the order target, one above, one
    /// below, two above, two below, ... (see `IntegerShape`), so shrinking walks straight
    /// toward the target with `1` and `-1` equally simple: by default `0`, or the bound
    /// nearest to `0` when `0` is outside `range`. Fresh draws are biased: one in eight repeats
    /// one of the last four integers the same test case drew, or a neighbour of it one or two
    /// away (when it fits `range`), so bugs that need equal or adjacent values turn up early; of
    /// the rest, about a fifth are special values (the bounds and their neighbours, the target,
    /// `0`, `±1`, powers of two and the limits of narrower integer types that fall inside
    /// `range`), two fifths are small distances from the target (log-uniform), the rest uniform.
    ///
    /// Works for every fixed-width integer type up to 64 bits; wider types reject the case
    /// with an explanation.
    /// - Parameters:
    ///   - range: The values allowed.
    ///   - target: The simplest value, where shrinking ends; clamped into `range`.
    public static func integer(in range: ClosedRange<Value>, shrinkingToward target: Value? = nil) -> Gen<Value> {
        guard Value.bitWidth <= 64 else {
            return Gen { testCase in
                try testCase.reject("integer generators support types of at most 64 bits, not \(Value.self)")
            }
        }
        let coder = IntegerCoder(
            lower: orderPreserving(range.lowerBound), upper: orderPreserving(range.upperBound),
            target: orderPreserving(Swift.min(Swift.max(target ?? 0, range.lowerBound), range.upperBound)),
            specials: integerSpecials(in: range), isSigned: Value.isSigned)
        return Gen { testCase in fromOrderPreserving(try coder.draw(&testCase)) }
    }

    /// A generator of integers in the half-open `range`, shrinking toward `0` or the bound nearest to it.
    ///
    /// An empty range rejects every case with an explanation.
    public static func integer(in range: Range<Value>) -> Gen<Value> {
        guard let last = range.last else {
            let reason = "integer(in:) was given the empty range \(range)"
            return Gen { testCase in try testCase.reject(reason) }
        }
        return integer(in: range.lowerBound...last)
    }

    /// A generator of any value of the integer type, shrinking toward `0`.
    public static var anyInteger: Gen<Value> {
        integer(in: Value.min...Value.max)
    }
}

extension Gen where Value == Int {
    /// A generator of `Int` values in `range`, shrinking toward `0` or the bound nearest to it.
    ///
    /// Shorthand for ``Gen/integer(in:shrinkingToward:)``.
    public static func int(in range: ClosedRange<Int> = Int.min...Int.max) -> Gen<Int> {
        integer(in: range)
    }

    /// A generator of `Int` values in the half-open `range`.
    public static func int(in range: Range<Int>) -> Gen<Int> {
        integer(in: range)
    }
}

/// Maps an integer of at most 64 bits to a `UInt64` whose unsigned order matches the integer order.
func orderPreserving<T: FixedWidthInteger>(_ value: T) -> UInt64 {
    T.isSigned
        ? UInt64(bitPattern: Int64(truncatingIfNeeded: value)) ^ (1 << 63)
        : UInt64(truncatingIfNeeded: value)
}

/// Inverse of `orderPreserving(_:)`.
func fromOrderPreserving<T: FixedWidthInteger>(_ ordered: UInt64) -> T {
    T.isSigned
        ? T(truncatingIfNeeded: Int64(bitPattern: ordered ^ (1 << 63)))
        : T(truncatingIfNeeded: ordered)
}

/// The special values of `range` that fresh draws favour, in the order-preserving encoding.
func integerSpecials<T: FixedWidthInteger>(in range: ClosedRange<T>) -> [UInt64] {
    var candidates: [T] = [range.lowerBound, range.upperBound, 0, 1]
    if range.lowerBound < range.upperBound {
        candidates += [range.lowerBound + 1, range.upperBound - 1]
    }
    if T.isSigned { candidates.append(-1) }
    for bits in [7, 8, 15, 16, 31, 32] where bits < T.bitWidth - (T.isSigned ? 1 : 0) {
        let power = T(1) << bits
        candidates += [power, power - 1]
        if T.isSigned { candidates += [0 - power, 0 - power + 1] }
    }
    var seen = Set<UInt64>()
    return candidates.filter { range.contains($0) }.map(orderPreserving).filter { seen.insert($0).inserted }
}

/// The choice encoding of an integer range in the order-preserving `UInt64` space.
///
/// A value is recorded as one choice: its index in the range's ``IntegerShape`` (the target,
/// then the values one above and one below it, then two above and two below, ...), so smaller
/// choices are values nearer the target and `1` and `-1` are equally simple.
struct IntegerCoder: Sendable {
    let lower: UInt64
    let upper: UInt64
    let target: UInt64
    let specials: [UInt64]
    /// Whether the encoded type is signed (values of signed and unsigned types never repeat each other).
    let isSigned: Bool

    /// Picks a biased fresh value in `lower...upper`.
    func plan(_ random: inout Xoshiro256StarStar) -> UInt64 {
        let roll = random.bounded(by: 9)
        if roll < 2, !specials.isEmpty {
            return specials[Int(random.bounded(by: UInt64(specials.count - 1)))]
        }
        if roll < 6 {
            let bits = random.bounded(by: 63) + 1
            let distance = random.next() >> (64 - bits)
            if random.next() & 1 == 0 {
                if upper - target >= distance { return target + distance }
            } else if target - lower >= distance {
                return target - distance
            }
        }
        return lower &+ random.bounded(by: upper &- lower)
    }

    /// Draws a value, planning it (a repeat, a special value, a small distance) when drawing fresh.
    func draw(_ testCase: inout TestCase) throws -> UInt64 {
        let fresh = testCase.isDrawingFresh
        let planned = fresh
            ? testCase.repeatedInteger(in: lower...upper, isSigned: isSigned) ?? testCase.planning { plan(&$0) }
            : nil
        let shape = IntegerShape(above: upper - target, below: target - lower)
        guard shape.lastIndex > 0 else { return target }
        let plannedIndex = planned.flatMap { value in
            value >= target ? shape.index(isBelow: false, distance: value - target) : shape.index(isBelow: true, distance: target - value)
        }
        let index = try testCase.choice(upTo: shape.lastIndex, preferring: plannedIndex)
        testCase.noteIntegerShape(shape)
        let (isBelow, distance) = shape.position(ofIndex: index)
        let value = isBelow ? target - distance : target + distance
        if fresh { testCase.noteDrawnInteger(value, isSigned: isSigned) }
        return value
    }
}

/// The order of an integer range's values around its target, from simplest to least simple:
/// the target (index 0), then one above (1) and one below (2), two above (3) and two below (4),
/// and so on while both sides last; then the rest of the longer side in order.
///
/// Integer generators record a value as its index in this order, so one choice holds the whole
/// value and shrinking it moves toward the target with `1` and `-1` equally simple
/// (Hypothesis's order). The shrinker reads the shape back to move values in value space: to
/// lower a distance while keeping the side, or to move value from one integer to another.
/// Invariant: ``index(isBelow:distance:)`` and ``position(ofIndex:)`` are inverse bijections
/// between `0...lastIndex` and the range; `lastIndex == above + below` never overflows because
/// the range has at most 2^64 values.
@usableFromInline
struct IntegerShape: Hashable, Sendable {
    /// How many values the range has above the target.
    let above: UInt64
    /// How many values the range has below the target.
    let below: UInt64

    /// The largest index.
    var lastIndex: UInt64 { above + below }

    /// The distance up to which the two sides alternate.
    var interleaved: UInt64 { Swift.min(above, below) }

    /// The side and distance from the target of the value at `index`.
    func position(ofIndex index: UInt64) -> (isBelow: Bool, distance: UInt64) {
        if index == 0 { return (false, 0) }
        if index <= 2 * interleaved { return (index % 2 == 0, (index + 1) / 2) }
        return (below > above, index - interleaved)
    }

    /// The index of the value at `distance` from the target on the given side; `nil` outside the range.
    func index(isBelow: Bool, distance: UInt64) -> UInt64? {
        if distance == 0 { return 0 }
        guard distance <= (isBelow ? below : above) else { return nil }
        if distance <= interleaved { return isBelow ? 2 * distance : 2 * distance - 1 }
        return interleaved + distance
    }
}
