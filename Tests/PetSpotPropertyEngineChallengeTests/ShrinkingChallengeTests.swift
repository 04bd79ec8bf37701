@testable import PetSpotBenchmarks
import PetSpotPropertyEngine
import Testing

/// The seeds each challenge runs from here; `petspot-contracts bench --filter challenge` runs 1 to 100.
let challengeSeeds: [UInt64] = [1, 2, 3, 4, 5]

@Suite("The Shrinking Challenge (github.com/jlink/shrinking-challenge)")
struct ShrinkingChallengeTests {
    @Test("each challenge is found and shrunk to its smallest counterexample", arguments: ShrinkingChallenge.all.map(\.name))
    func challenge(name: String) throws {
        let challenge = try #require(ShrinkingChallenge.named(name))
        let runs = challengeSeeds.map { challenge.run(seed: $0) }
        let found = runs.filter(\.found)
        #expect(found.count == runs.count, "\(name): found in \(found.count) of \(runs.count) runs")
        for (seed, run) in zip(challengeSeeds, runs) where run.found {
            #expect(run.stopReason == "minimal", "\(name), seed \(seed): shrinking stopped by \(run.stopReason)")
        }
        let minimal = found.filter(\.isMinimal).count
        #expect(minimal == found.count, """
            \(name): \(minimal) of \(found.count) runs ended at \(challenge.smallest); got \
            \(found.map(\.counterexample))
            """)
    }

    @Test("each challenge's minimality test accepts its smallest counterexample and nothing larger")
    func minimalityIsStrict() throws {
        // Re-shrinking with no shrinking at all leaves the first failure, which is never minimal here.
        let unshrunk = try #require(ShrinkingChallenge.named("difference_must_not_be_small")).run(seed: 1, shrinks: false)
        #expect(unshrunk.found && !unshrunk.isMinimal)
        let distinct = try #require(ShrinkingChallenge.named("distinct")).run(seed: 1, shrinks: false)
        #expect(distinct.found && !distinct.isMinimal)
    }

    @Test("difference_must_not_be_zero is found in nearly every run of only 100 cases")
    func equalValuesFoundEarly() throws {
        let challenge = try #require(ShrinkingChallenge.named("difference_must_not_be_zero"))
        let found = (1...20).filter { challenge.run(seed: UInt64($0), cases: 100, shrinks: false).found }.count
        #expect(found >= 18, "found in \(found) of 20 runs")
    }
}
