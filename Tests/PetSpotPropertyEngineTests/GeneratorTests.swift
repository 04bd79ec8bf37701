import Foundation
import PetSpotPropertyEngine
import PetSpotPropertyEngineTestSupport
import Testing

/// Draws `count` values of `gen` from seeds split from `seed`.
func values<Value>(_ gen: Gen<Value>, count: Int = 500, seed: UInt64 = 77, size: Int = 100) -> [Value] {
    gen.samples(count: count, seed: seed, size: size)
}

@Suite("Generators and combinators")
struct GeneratorTests {
    @Test("every built-in generator obeys the generator laws")
    func laws() {
        #expect(GeneratorLaws.violations(of: Gen.int(in: -50...50)).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen<UInt8>.anyInteger).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen.double(in: -1...1)).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen.string(from: .asciiLetters, length: 0...20)).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen.int(in: 0...9).array(count: 2...5)).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen<Set<Int>>.set(of: .int(in: 0...20), count: 1...5)).isEmpty)
        #expect(GeneratorLaws.violations(of: Gen.date(in: TimeZone(identifier: "Asia/Tokyo")!)).isEmpty)
        let nested = Gen.int(in: 0...3).flatMap { n in Gen.string(from: "xyz", length: n...n) }
        #expect(GeneratorLaws.violations(of: nested).isEmpty)
    }

    @Test("the laws checker catches a generator that uses outside randomness")
    func lawsCatchNondeterminism() {
        let impure = Gen<Int> { _ in Int.random(in: 0...1_000_000) }
        #expect(!GeneratorLaws.violations(of: impure, samples: 10).isEmpty)
    }

    @Test("same seed, same values; map identity")
    func determinism() {
        let gen = Gen.string(from: .asciiPrintable).array(count: 0...5)
        #expect(values(gen, seed: 5) == values(gen, seed: 5))
        #expect(values(gen, seed: 5) != values(gen, seed: 6))
        #expect(values(gen.map { $0 }, seed: 5) == values(gen, seed: 5))
    }

    @Test("constant, map, zip")
    func basics() throws {
        #expect(try Gen.constant(7).sample(seed: 1) == 7)
        #expect(values(Gen.int(in: 0...9).map { $0 * 2 }).allSatisfy { $0 % 2 == 0 && $0 <= 18 })
        let triple = zip(Gen.int(in: 0...1), Gen.bool, Gen.string(from: "ab", length: 1...1))
        let drawn = values(triple)
        #expect(drawn.allSatisfy { $0.0 <= 1 && ($0.2 == "a" || $0.2 == "b") })
        #expect(Set(drawn.map(\.1)).count == 2)
        let six = zip(Gen.constant(1), .constant(2), .constant(3), .constant(4), .constant(5), .constant(6))
        #expect(try six.sample(seed: 1) == (1, 2, 3, 4, 5, 6))
        let combined = Gen.int(in: 1...1).zip(Gen.int(in: 2...2)) { $0 + $1 }
        #expect(try combined.sample(seed: 1) == 3)
    }

    @Test("integers stay in range, reach both bounds and special values")
    func integers() throws {
        let drawn = values(Gen.int(in: -1000...1000), count: 2000)
        #expect(drawn.allSatisfy { (-1000...1000).contains($0) })
        for special in [-1000, 1000, 0, -1, 1, 999, -999] { #expect(drawn.contains(special)) }
        let bytes = values(Gen<UInt8>.anyInteger, count: 2000)
        #expect(bytes.contains(255) && bytes.contains(0) && bytes.contains(128))
        let wide = values(Gen<Int64>.anyInteger, count: 2000)
        #expect(wide.contains(.max) && wide.contains(.min))
        #expect(values(Gen<Int>.int(in: 5..<6)).allSatisfy { $0 == 5 })
        #expect(values(Gen<Int16>.integer(in: 100...200, shrinkingToward: 150)).allSatisfy { (100...200).contains($0) })
        #expect(try Gen<Int16>.integer(in: 100...200, shrinkingToward: 150).replay([]) == 150)
        #expect(try Gen<Int>.int(in: -20...(-10)).replay([]) == -10)
    }

    @Test("an empty range rejects cases with an explanation instead of crashing")
    func emptyRange() {
        #expect(throws: TestCaseStop.rejected("integer(in:) was given the empty range 3..<3")) {
            try Gen<Int>.int(in: 3..<3).sample(seed: 1)
        }
        #expect(throws: TestCaseStop.self) { try Gen<Int>.element(of: [Int]()).sample(seed: 1) }
        #expect(throws: TestCaseStop.self) { try Gen<Int>.oneOf([]).sample(seed: 1) }
    }

    @Test("doubles stay in range and hit boundary and special values")
    func doubles() throws {
        let drawn = values(Gen.double(in: -2.5...10), count: 3000)
        #expect(drawn.allSatisfy { (-2.5...10).contains($0) })
        for special in [-2.5, 10, 0, (-2.5).nextUp, 10.0.nextDown, Double.leastNonzeroMagnitude, 1] {
            #expect(drawn.contains(special), "missing \(special)")
        }
        #expect(drawn.contains { $0 == 0 && $0.sign == .minus })
        let positive = values(Gen.double(in: 1...2))
        #expect(positive.allSatisfy { (1...2).contains($0) })
        #expect(try Gen.double(in: 1...2).replay([]) == 1)
        let wild = values(Gen.double(includeNonFinite: true), count: 3000)
        #expect(wild.contains { $0.isNaN } && wild.contains(.infinity) && wild.contains(-.infinity))
        #expect(throws: TestCaseStop.self) { try Gen.double(in: 0...Double.infinity).sample(seed: 1) }
    }

    @Test("oneOf, frequency and element(of:) draw every alternative and shrink to the first")
    func choices() throws {
        let one = Gen.oneOf(.constant("a"), .constant("b"), .constant("c"))
        #expect(Set(values(one)) == ["a", "b", "c"])
        #expect(try one.replay([]) == "a")
        let weighted = Gen.frequency((1, .constant(0)), (9, .constant(1)))
        let ones = values(weighted, count: 2000).filter { $0 == 1 }.count
        #expect((1600...1950).contains(ones))
        #expect(try weighted.replay([]) == 0)
        #expect(Set(values(Gen.element(of: ["x", "y"]))) == ["x", "y"])
        let bools = values(Gen.bool(probability: 0.9), count: 1000)
        #expect(bools.filter { $0 }.count > 800)
        let optionals = values(Gen.int(in: 0...3).optional(), count: 1000)
        #expect(optionals.contains(nil) && optionals.contains(3))
        #expect(try Gen.int(in: 0...3).optional().replay([]) == nil)
    }

    @Test("filter keeps only matching values")
    func filter() {
        #expect(values(Gen.int(in: 0...100).filter { $0 % 3 == 0 }).allSatisfy { $0 % 3 == 0 })
    }

    @Test("an exhausted filter names itself and its budget")
    func filterBudget() {
        let never = Gen.int(in: 0...100).filter("more than a hundred", maxAttempts: 25) { $0 > 100 }
        #expect(throws: TestCaseStop.rejected(
            "filter \"more than a hundred\" rejected 25 draws in a row (discard budget 25); "
                + "generate valid values by construction or loosen the predicate")) {
            try never.sample(seed: 1)
        }
    }

    @Test("arrays, sets and dictionaries respect their size ranges")
    func collections() {
        let arrays = values(Gen.int(in: 0...9).array(count: 2...6))
        #expect(arrays.allSatisfy { (2...6).contains($0.count) })
        #expect(Set(arrays.map(\.count)) == Set(2...6))
        let sets = values(Gen<Set<Int>>.set(of: .int(in: 0...50), count: 3...8))
        #expect(sets.allSatisfy { (3...8).contains($0.count) })
        let dictionaries = values(Gen<[String: Int]>.dictionary(
            keys: .string(from: .asciiLowercase, length: 1...3), values: .int(in: 0...9), count: 1...4))
        #expect(dictionaries.allSatisfy { (1...4).contains($0.count) })
        let impossible = Gen<Set<Int>>.set(of: .int(in: 0...2), count: 5...5)
        #expect(throws: TestCaseStop.rejected("set found only 3 distinct elements, fewer than the minimum 5")) {
            try impossible.sample(seed: 1)
        }
    }

    @Test("strings use their class, respect lengths, and shrink to the class's first character")
    func strings() throws {
        let letters = values(Gen.string(from: .asciiLetters, length: 1...10))
        #expect(letters.allSatisfy { (1...10).contains($0.count) && $0.allSatisfy(\.isLetter) })
        #expect(try Gen.string(from: .asciiLetters, length: 3...3).replay([]) == "aaa")
        let emoji = CharacterClass(["👩‍👩‍👧", "é", "x"])
        let family = values(Gen.string(from: emoji, length: 2...2))
        #expect(family.allSatisfy { $0.unicodeScalars.allSatisfy { "👩‍👩‍👧éx".unicodeScalars.contains($0) } })
        let fromCharacters = values(Gen.string(of: .character(from: "01"), length: 4...4))
        #expect(fromCharacters.allSatisfy { $0.count == 4 && $0.allSatisfy { $0 == "0" || $0 == "1" } })
        #expect(CharacterClass.asciiPrintable.characters.count == 95)
        #expect(CharacterClass.asciiPrintable.characters.first == "a")
    }

    @Test("size-driven generators grow with the size parameter")
    func sized() throws {
        let small = values(Gen.int(in: 0...9).array(), size: 0).map(\.count)
        let large = values(Gen.int(in: 0...9).array(), size: 100).map(\.count)
        #expect(small.reduce(0, +) * 4 < large.reduce(0, +))
        let echo = Gen<Int>.sized { Gen.constant($0) }
        #expect(try echo.sample(seed: 1, size: 37) == 37)
        #expect(try echo.resized(5).sample(seed: 1, size: 37) == 5)
    }

    indirect enum Tree: Sendable, Equatable {
        case leaf(Int)
        case node([Tree])

        var depth: Int {
            switch self {
            case .leaf: 0
            case .node(let children): 1 + (children.map(\.depth).max() ?? 0)
            }
        }
    }

    @Test("recursive generators stay within their depth and shrink to the base case")
    func recursive() throws {
        let trees = Gen<Tree>.recursive(maxDepth: 3, base: Gen.int(in: 0...9).map(Tree.leaf)) { child in
            child.array(count: 0...3).map(Tree.node)
        }
        let drawn = values(trees)
        #expect(drawn.allSatisfy { $0.depth <= 3 })
        #expect(drawn.contains { $0.depth == 3 })
        #expect(try trees.replay([]) == .leaf(0))
    }

    @Test("dates are wall-clock times in their zone and shrink to the reference")
    func dates() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let reference = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01 09:00 in Tokyo
        let gen = Gen.date(in: tokyo, around: reference, dayOffsets: -2...2)
        #expect(try gen.replay([]) == reference)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tokyo
        let drawn = values(gen, count: 1000)
        let days = Set(drawn.map { calendar.component(.day, from: $0) })
        #expect(days.isSubset(of: [30, 31, 1, 2, 3]) && days.count == 5)
        let seconds = drawn.map { calendar.component(.hour, from: $0) * 3600 + calendar.component(.minute, from: $0) * 60 }
        #expect(seconds.contains(0))
    }

    @Test("a runaway generator overruns its choice budget instead of hanging")
    func overrun() {
        let endless = Gen<Int> { testCase in
            var total = 0
            while true { total += Int(try testCase.choice(upTo: 1)) }
        }
        #expect(throws: TestCaseStop.overrun(limit: 8192)) { try endless.sample(seed: 1) }
    }
}

@Suite("Length caps")
struct LengthCapTests {
    @Test("collections with a finite maximum sometimes reach exactly the maximum and the minimum")
    func capsAreExercised() {
        let lengths = values(Gen.int(in: 0...9).array(count: 3...400), count: 400).map(\.count)
        #expect(lengths.contains(400) && lengths.contains(3))
        #expect(lengths.allSatisfy { (3...400).contains($0) })
    }
}
