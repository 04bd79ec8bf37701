extension Gen where Value: FixedWidthInteger & Sendable {
    /// A generator of integers in `range` that shrinks toward `target`.
    ///
    /// The value is recorded as a side (at or above the target, or below it) and a distance
    /// from the target, so shrinking walks straight toward the target: by default `0`, or
    /// the bound nearest to `0` when `0` is outside `range`. Fresh draws are biased: about a
    /// fifth are special values (the bounds and their neighbours, the target, `0`, `±1`,
    /// powers of two and the limits of narrower integer types that fall inside `range`), two
    /// fifths are small distances from the target (log-uniform), the rest uniform.
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
        let coder = _IntegerCoder(
            lower: _ordered(range.lowerBound), upper: _ordered(range.upperBound),
            target: _ordered(Swift.min(Swift.max(target ?? 0, range.lowerBound), range.upperBound)),
            specials: _integerSpecials(in: range))
        return Gen { testCase in _fromOrdered(try coder.draw(testCase)) }
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
@usableFromInline
func _ordered<T: FixedWidthInteger>(_ value: T) -> UInt64 {
    T.isSigned
        ? UInt64(bitPattern: Int64(truncatingIfNeeded: value)) ^ (1 << 63)
        : UInt64(truncatingIfNeeded: value)
}

/// Inverse of ``_ordered(_:)``.
@usableFromInline
func _fromOrdered<T: FixedWidthInteger>(_ ordered: UInt64) -> T {
    T.isSigned
        ? T(truncatingIfNeeded: Int64(bitPattern: ordered ^ (1 << 63)))
        : T(truncatingIfNeeded: ordered)
}

func _integerSpecials<T: FixedWidthInteger>(in range: ClosedRange<T>) -> [UInt64] {
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
    return candidates.filter { range.contains($0) }.map(_ordered).filter { seen.insert($0).inserted }
}

/// The choice encoding of an integer range in the order-preserving `UInt64` space.
struct _IntegerCoder: Sendable {
    let lower: UInt64
    let upper: UInt64
    let target: UInt64
    let specials: [UInt64]

    init(lower: UInt64, upper: UInt64, target: UInt64, specials: [UInt64]) {
        self.lower = lower
        self.upper = upper
        self.target = target
        self.specials = specials
    }

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

    func draw(_ testCase: TestCase) throws -> UInt64 {
        let planned = testCase.planning { plan(&$0) }
        let above = upper - target
        let below = target - lower
        if above > 0 && below > 0 {
            let isBelow = try testCase.choice(upTo: 1, preferring: planned.map { $0 < target ? 1 : 0 }) == 1
            if isBelow {
                let distance = try testCase.choice(
                    upTo: below - 1, preferring: planned.flatMap { $0 < target ? target - $0 - 1 : nil })
                return target - distance - 1
            }
            let distance = try testCase.choice(
                upTo: above, preferring: planned.flatMap { $0 >= target ? $0 - target : nil })
            return target + distance
        }
        if above > 0 {
            return target + (try testCase.choice(upTo: above, preferring: planned.map { $0 - target }))
        }
        if below > 0 {
            return target - (try testCase.choice(upTo: below, preferring: planned.map { target - $0 }))
        }
        return target
    }
}
