/// The engine's seeded, splittable pseudo-random number generator.
///
/// xoshiro256** (Blackman and Vigna, 2018) keeps 256 bits of state and produces 64-bit
/// outputs with excellent statistical quality at a cost of a few shifts and multiplies.
/// The state is expanded from a single 64-bit seed with ``SplitMix64``, so one seed names
/// one sequence on every platform: the engine never reads `SystemRandomNumberGenerator`
/// except to pick a seed when none is given.
///
/// ``split()`` derives an independent child generator (seeded from the parent's next
/// output through SplitMix64) and advances the parent, which lets the property runner give
/// every test case its own stream: case *k* of seed *s* is the same whatever the other
/// cases drew.
///
/// ```swift
/// var rng = Xoshiro256StarStar(seed: 7)
/// var child = rng.split()
/// let roll = rng.bounded(by: 5)          // uniform in 0...5
/// ```
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// Creates a generator whose state is expanded from `seed` with SplitMix64.
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }  // the all-zero state is a fixed point
    }

    /// Returns the next 64 pseudo-random bits.
    @inlinable @inline(__always)
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Returns an independent generator and advances this one.
    ///
    /// The child is seeded from this generator's next output through SplitMix64, so the
    /// two streams do not overlap in practice.
    public mutating func split() -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: next())
    }

    /// Returns a uniform value in `0...upperBound`, the same on every platform.
    ///
    /// Uses Lemire's multiply-and-reject method, so it needs one draw almost always.
    @inlinable @inline(__always)
    public mutating func bounded(by upperBound: UInt64) -> UInt64 {
        if upperBound == .max { return next() }
        let range = upperBound &+ 1
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return product.high
    }

    /// Returns a uniform `Double` in `0..<1` built from the top 53 bits of one draw.
    @inlinable
    public mutating func unitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
