/// A tiny, fast 64-bit generator used to seed and split other generators.
///
/// SplitMix64 (Steele, Lea and Flood, 2014) walks a 64-bit counter by a fixed odd
/// "golden gamma" and scrambles each state through two multiply-xorshift rounds. Its
/// output depends only on the seed, so a seed gives the same sequence on every platform.
/// It is good enough as a stand-alone generator and is the recommended way to expand one
/// 64-bit seed into the 256-bit state of ``Xoshiro256StarStar``.
///
/// ```swift
/// var seeder = SplitMix64(seed: 42)
/// let a = seeder.next(), b = seeder.next()   // the same two numbers on every machine
/// ```
///
/// Each call to ``next()`` is O(1) and allocation-free.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The current counter; advanced by the golden gamma on every draw.
    public var state: UInt64 { counter }
    @usableFromInline var counter: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        counter = seed
    }

    /// Returns the next 64 pseudo-random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        counter &+= 0x9E37_79B9_7F4A_7C15
        var z = counter
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
