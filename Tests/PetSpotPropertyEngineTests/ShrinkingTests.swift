import PetSpotPropertyEngine
import Testing

/// The seeds every planted bug is shrunk from: the minimal counterexample must not depend on luck.
let plantedSeeds: [UInt64] = [1, 2, 3, 20_261_121, 0xDEAD_BEEF, 987_654_321]

/// Runs `body` over `gen` from several seeds; returns the shrunk counterexample when every
/// seed shrinks to the same one, recording an issue (and returning `nil`) otherwise.
func shrunkCounterexample<Value>(
    _ gen: Gen<Value>, cases: Int = 300,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping (Value) throws -> Bool
) -> Value? {
    var results: [(UInt64, Value, String)] = []
    for seed in plantedSeeds {
        let configuration = PropertyConfiguration(cases: cases, seed: seed, readsEnvironment: false)
        guard let failure = Property("planted", gen, body).check(configuration).failure else {
            Issue.record("the planted bug was not found with seed \(seed)", sourceLocation: sourceLocation)
            return nil
        }
        results.append((seed, failure.shrunk, String(reflecting: failure.shrunk)))
    }
    let distinct = Set(results.map(\.2))
    guard distinct.count == 1, let first = results.first else {
        let lines = results.map { "seed \($0.0): \($0.2)" }.joined(separator: "\n")
        Issue.record("seeds shrank to different counterexamples:\n\(lines)", sourceLocation: sourceLocation)
        return nil
    }
    return first.1
}

@Suite("Shrinking planted bugs to minimal counterexamples")
struct ShrinkingTests {
    @Test("an array holding a number >= 1000 shrinks to [1000]")
    func arrayThreshold() {
        let gen = Gen.int(in: 0...100_000).array(count: 0...50)
        #expect(shrunkCounterexample(gen) { values in values.allSatisfy { $0 < 1000 } } == [1000])
    }

    @Test("lists of at least one mixed-shape element shrink to the one element that matters")
    func mandatoryElementsDelete() {
        // Elements of different shapes: deleting the first one alone would misalign the rest.
        let action = Gen<Int?>.oneOf(.constant(nil), Gen.int(in: 0...9).map(Optional.some))
        let shrunk = shrunkCounterexample(action.array(count: 1...10)) { !$0.contains(7) }
        #expect(shrunk == [7])
    }

    @Test("the same with the full Int range and negative numbers")
    func arrayThresholdFullRange() {
        let gen = Gen<[Int]>.array(of: .int())
        #expect(shrunkCounterexample(gen) { values in values.allSatisfy { $0 < 1000 } } == [1000])
    }

    @Test("x >= 1234 shrinks to 1234")
    func integerThreshold() {
        #expect(shrunkCounterexample(Gen.int()) { $0 < 1234 } == 1234)
    }

    @Test("x <= -1234 shrinks to -1234")
    func negativeIntegerThreshold() {
        #expect(shrunkCounterexample(Gen.int(in: -100_000...100_000)) { $0 > -1234 } == -1234)
    }

    @Test("a square overflowing Int32 shrinks to 46341")
    func squareOverflow() {
        let gen = Gen<Int32>.anyInteger
        #expect(shrunkCounterexample(gen) { !$0.multipliedReportingOverflow(by: $0).overflow } == 46341)
    }

    @Test("a range not containing 0 shrinks toward its lower bound")
    func rangeAwayFromZero() {
        let gen = Gen<UInt8>.integer(in: 10...200)
        #expect(shrunkCounterexample(gen) { $0 % 7 != 3 } == 10)
    }

    @Test("a string with three characters shrinks to \"aaa\"")
    func stringLength() {
        let gen = Gen.string(from: .asciiLetters)
        #expect(shrunkCounterexample(gen) { $0.count < 3 } == "aaa")
    }

    @Test("a string containing an uppercase letter shrinks to \"A\"")
    func stringContent() {
        let gen = Gen.string(from: .asciiLetters)
        #expect(shrunkCounterexample(gen) { !$0.contains { $0.isUppercase } } == "A")
    }

    @Test("a string containing a digit after a letter shrinks to \"a0\"")
    func stringPattern() {
        let gen = Gen.string(from: .asciiAlphanumerics)
        let found = shrunkCounterexample(gen) { text in
            !zip(text, text.dropFirst()).contains { $0.isLetter && $1.isNumber }
        }
        #expect(found == "a0")
    }

    @Test("a flatMap-dependent pair (n, n values) with sum > 10 shrinks to (1, [11])")
    func flatMapPair() {
        let gen = Gen.int(in: 0...10).flatMap { n in
            Gen.int(in: 0...100).array(count: n...n).map { (n, $0) }
        }
        let found = shrunkCounterexample(gen) { pair in pair.1.reduce(0, +) <= 10 }
        #expect(found?.0 == 1)
        #expect(found?.1 == [11])
    }

    @Test("shrinking through filter and map keeps the filter's invariant")
    func throughFilterAndMap() {
        let evens = Gen.int(in: 0...10_000).filter("even") { $0 % 2 == 0 }.map { $0 * 3 }
        #expect(shrunkCounterexample(evens) { $0 < 600 } == 600)
    }

    @Test("a double threshold shrinks to the exact threshold")
    func doubleThreshold() {
        let gen = Gen.double(in: -1e6...1e6)
        #expect(shrunkCounterexample(gen) { $0 < 1000.5 } == 1000.5)
    }

    @Test("two arrays both non-empty shrink to ([0], [0])")
    func zippedArrays() {
        let gen = zip(Gen.int(in: 0...9).array(), Gen.int(in: 0...9).array())
        let found = shrunkCounterexample(gen) { pair in pair.0.isEmpty || pair.1.isEmpty }
        #expect(found?.0 == [0])
        #expect(found?.1 == [0])
    }

    @Test("a string exactly at its length cap shrinks to the cap's worth of the simplest character")
    func stringAtCap() {
        let gen = Gen.string(from: .asciiPrintable, length: 0...300)
        #expect(shrunkCounterexample(gen) { $0.count != 300 } == String(repeating: "a", count: 300))
    }

    struct Contact: Equatable, Sendable {
        var name: String
        var phone: String
        var email: String?
        var age: Int
    }

    @Test("a record shrinks to required fields only, with the simplest values")
    func recordShrink() {
        let gen = zip(
            Gen.string(from: .asciiLetters, length: 1...40),
            Gen.string(from: .asciiDigits, length: 6...15),
            Gen.string(from: .asciiAlphanumerics, length: 3...30).optional(),
            Gen.int(in: 0...120)
        ).map { Contact(name: $0, phone: $1, email: $2, age: $3) }
        let found = shrunkCounterexample(gen) { $0.phone.count != 11 }
        #expect(found == Contact(name: "a", phone: "00000000000", email: nil, age: 0))
    }
}
