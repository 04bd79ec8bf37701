import PetSpotPropertyEngine
import Testing

@Suite("Seeded, splittable pseudo-random generators")
struct RandomTests {
    @Test("SplitMix64 matches the published reference output for seed 0")
    func splitMixReference() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("the same seed gives the same sequence; different seeds differ")
    func seedDeterminism() {
        var a = Xoshiro256StarStar(seed: 42), b = Xoshiro256StarStar(seed: 42), c = Xoshiro256StarStar(seed: 43)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        #expect(first != (0..<100).map { _ in c.next() })
    }

    @Test("xoshiro256** output is pinned for seed 1 (cross-platform stability)")
    func xoshiroPinned() {
        var random = Xoshiro256StarStar(seed: 1)
        let values = (0..<3).map { _ in random.next() }
        var again = Xoshiro256StarStar(seed: 1)
        #expect(values == (0..<3).map { _ in again.next() })
        #expect(values == pinnedXoshiroSeed1)
    }

    @Test("split streams are independent of each other and deterministic")
    func splitting() {
        var parent = Xoshiro256StarStar(seed: 9)
        var left = parent.split(), right = parent.split()
        let l = (0..<50).map { _ in left.next() }, r = (0..<50).map { _ in right.next() }
        #expect(l != r)
        var parentAgain = Xoshiro256StarStar(seed: 9)
        var leftAgain = parentAgain.split()
        #expect(l == (0..<50).map { _ in leftAgain.next() })
    }

    @Test("bounded(by:) stays in range and hits both ends")
    func bounded() {
        var random = Xoshiro256StarStar(seed: 3)
        var seen = Set<UInt64>()
        for _ in 0..<2000 {
            let value = random.bounded(by: 6)
            #expect(value <= 6)
            seen.insert(value)
        }
        #expect(seen == Set(0...6))
        #expect(random.bounded(by: 0) == 0)
        _ = random.bounded(by: .max)
        let unit = random.unitDouble()
        #expect(unit >= 0 && unit < 1)
    }
}

/// The first three outputs of xoshiro256** seeded with 1 (state expanded by SplitMix64),
/// computed from a separate transcription of the reference algorithm and pinned as literals,
/// so any platform or refactoring that changes the stream fails here.
let pinnedXoshiroSeed1: [UInt64] = [0xB3F2_AF6D_0FC7_10C5, 0x853B_5596_4736_4CEA, 0x92F8_9756_082A_4514]
