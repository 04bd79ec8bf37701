extension Gen where Value == Double {
    /// A generator of doubles in `range` (finite bounds), shrinking toward the value nearest to `0`.
    ///
    /// The value is recorded as a sign (when `range` spans zero) and the bit pattern of its
    /// magnitude relative to the smallest allowed magnitude. Bit patterns of non-negative
    /// doubles are ordered like their values, so shrinking walks toward the smallest
    /// magnitude and binary search finds exact thresholds (a planted `x >= 1000.5` shrinks
    /// to `1000.5`). Fresh draws are biased: about a fifth are special values (both bounds,
    /// their `nextUp`/`nextDown`, `0`, `-0`, `±leastNonzeroMagnitude`,
    /// `±leastNormalMagnitude`, `±1`, `±0.5`) that fall inside `range`, a fifth small
    /// integers, the rest uniform in value or, for very wide ranges, in bit pattern.
    ///
    /// With `includeNonFinite`, `+infinity`, `-infinity` and NaN are added as rarer
    /// alternatives (recorded by a leading choice; finite is the simplest). Bounds that are
    /// themselves infinite or NaN reject every case with an explanation.
    public static func double(
        in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude,
        includeNonFinite: Bool = false
    ) -> Gen<Double> {
        guard range.lowerBound.isFinite, range.upperBound.isFinite else {
            let reason = "double(in:) needs finite bounds, not \(range); use includeNonFinite for infinities"
            return Gen { testCase in try testCase.reject(reason) }
        }
        let coder = DoubleCoder(range: range)
        guard includeNonFinite else {
            return Gen { testCase in try coder.draw(&testCase) }
        }
        return Gen { testCase in
            let planned: UInt64? = testCase.planning { random in
                random.bounded(by: 19) < 17 ? 0 : 1 + random.bounded(by: 2)
            }
            switch try testCase.choice(upTo: 3, preferring: planned) {
            case 1: return .infinity
            case 2: return -.infinity
            case 3: return .nan
            default: return try coder.draw(&testCase)
            }
        }
    }
}

/// The choice encoding of a finite double range: optional sign, then magnitude bit offset.
struct DoubleCoder: Sendable {
    /// Magnitude bit-pattern bounds of the non-negative side, if any.
    let positive: (low: UInt64, high: UInt64)?
    /// Magnitude bit-pattern bounds of the negative side, if any.
    let negative: (low: UInt64, high: UInt64)?
    let range: ClosedRange<Double>
    let specials: [Double]

    init(range: ClosedRange<Double>) {
        self.range = range
        let a = range.lowerBound, b = range.upperBound
        positive = b >= 0 ? (Swift.max(a, 0).magnitude.bitPattern, b.magnitude.bitPattern) : nil
        negative = a < 0 ? ((b < 0 ? b.magnitude : 0).bitPattern, a.magnitude.bitPattern) : nil
        let candidates: [Double] = [
            a, b, a.nextUp, b.nextDown, 0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, -.leastNormalMagnitude, 1, -1, 0.5, -0.5,
        ]
        specials = candidates.filter { range.contains($0) }
    }

    func plan(_ random: inout Xoshiro256StarStar) -> Double {
        let roll = random.bounded(by: 9)
        if roll < 2, !specials.isEmpty {
            return specials[Int(random.bounded(by: UInt64(specials.count - 1)))]
        }
        if roll < 4 {
            let small = Double(Int64(random.bounded(by: 200)) - 100)
            if range.contains(small) { return small }
        }
        let width = range.upperBound - range.lowerBound
        if width.isFinite && roll < 8 {
            return Swift.min(range.upperBound, range.lowerBound + width * random.unitDouble())
        }
        var candidate = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        if random.next() & 1 == 1 { candidate = -candidate }
        return range.contains(candidate) ? candidate : range.lowerBound + width / 2 * random.unitDouble() * 2
    }

    func draw(_ testCase: inout TestCase) throws -> Double {
        var planned = testCase.planning { plan(&$0) }
        if let value = planned, !value.isFinite || !range.contains(value) { planned = range.lowerBound }
        let plannedNegative = planned.map { $0.sign == .minus }
        var isNegative = negative != nil && positive == nil
        if positive != nil && negative != nil {
            isNegative = try testCase.choice(upTo: 1, preferring: plannedNegative.map { $0 ? 1 : 0 }) == 1
        }
        let side = (isNegative ? negative : positive) ?? (0, 0)
        var plannedOffset: UInt64? = nil
        if let value = planned, plannedNegative == isNegative {
            let bits = value.magnitude.bitPattern
            if bits >= side.low && bits <= side.high { plannedOffset = bits - side.low }
        }
        let offset = try testCase.choice(upTo: side.high - side.low, preferring: plannedOffset)
        let magnitude = Double(bitPattern: side.low + offset)
        return isNegative ? -magnitude : magnitude
    }
}
