import Foundation
import PetSpotPropertyEngine
import Testing

struct Overflow: Error, CustomStringConvertible {
    let value: Int
    var description: String { "value \(value) is too large" }
}

@Suite("The property runner")
struct PropertyRunnerTests {
    let fixed = PropertyConfiguration(cases: 200, seed: 424_242, readsEnvironment: false)

    @Test("a passing property reports its cases, seed and label statistics")
    func passed() {
        let result = Property("non-negative", Gen.int(in: 0...1000)) { value in
            classify(value == 0, "zero")
            classify(value >= 500, "large")
            return value >= 0
        }.check(fixed)
        guard case .passed(let pass) = result else {
            Issue.record("expected a pass, got \(result.report)")
            return
        }
        #expect(pass.cases == 200 && pass.seed == 424_242 && pass.discarded == 0)
        #expect(pass.labels.total == 200)
        #expect(pass.labels.share(of: "zero") > 0 && pass.labels.share(of: "large") > 20)
        #expect(pass.labels.share(of: "never") == 0)
        #expect(result.report.contains("passed 200 cases"))
    }

    @Test("a failure carries seed, original, shrunk, steps, timing, message and a replay line")
    func failureFields() throws {
        let result = check("below 1234", Gen.int(), configuration: fixed) { value in
            if value >= 1234 { throw Overflow(value: value) }
            return true
        }
        let failure = try #require(result.failure)
        #expect(failure.name == "below 1234" && failure.seed == 424_242)
        #expect(failure.shrunk == 1234)
        #expect(failure.original >= 1234)
        #expect(failure.message == "value 1234 is too large")
        #expect(failure.originalMessage == "value \(failure.original) is too large")
        #expect(failure.shrinkSteps > 0 && failure.shrinkAttempts >= failure.shrinkSteps)
        #expect(failure.shrinkDuration >= .zero)
        #expect(try Gen.int().replay(failure.shrunkChoices) == 1234)
        #expect(try Gen.int().replay(failure.originalChoices) == failure.original)
        #expect(failure.replayLine == "PETSPOT_SEED=424242 swift test --filter \"below 1234\"")
        for part in ["Shrunk counterexample", "1234", "Original counterexample", "\(failure.original)",
                     "Seed: 424242", "PETSPOT_SEED=424242", "PropertyConfiguration(seed: 424242)"] {
            #expect(failure.report.contains(part), "report lacks \(part)")
        }
    }

    @Test("a false result is a failure with a clear message")
    func falseResult() throws {
        let failure = try #require(check("small", Gen.int(in: 0...100), configuration: fixed) { $0 < 50 }.failure)
        #expect(failure.shrunk == 50)
        #expect(failure.message == "the property returned false")
    }

    @Test("rerunning with the same seed reproduces the same original and shrunk counterexample")
    func replayBySeed() throws {
        let gen = Gen.string(from: .asciiLetters).array(count: 0...8)
        let property = Property("no long words", gen) { words in words.allSatisfy { $0.count < 4 } }
        let first = try #require(property.check(PropertyConfiguration(readsEnvironment: false)).failure)
        let again = try #require(property.check(PropertyConfiguration(seed: first.seed, readsEnvironment: false)).failure)
        #expect(again.original == first.original && again.shrunk == first.shrunk)
        #expect(again.caseIndex == first.caseIndex && again.shrunk == ["aaaa"])
        let viaEnvironment = try #require(property.check(
            PropertyConfiguration(seed: 1), environment: ["PETSPOT_SEED": String(first.seed)]).failure)
        #expect(viaEnvironment.original == first.original && viaEnvironment.seed == first.seed)
    }

    @Test("PETSPOT_CASES_SCALE scales case counts; bad values are ignored")
    func casesScale() {
        let property = Property("any", Gen.int(in: 0...9)) { _ in true }
        let base = PropertyConfiguration(cases: 100, seed: 1)
        guard case .passed(let scaled) = property.check(base, environment: ["PETSPOT_CASES_SCALE": "0.1"]),
              case .passed(let bigger) = property.check(base, environment: ["PETSPOT_CASES_SCALE": "3"]),
              case .passed(let ignored) = property.check(base, environment: ["PETSPOT_CASES_SCALE": "lots"])
        else {
            Issue.record("expected passes")
            return
        }
        #expect(scaled.cases == 10 && bigger.cases == 300 && ignored.cases == 100)
        let (configuration, warnings) = base.applyingEnvironment([
            "PETSPOT_SEED": "0x10", "PETSPOT_MAX_SHRINK_SECONDS": "0.5", "PETSPOT_CASES_SCALE": "-1",
        ])
        #expect(configuration.seed == 16 && configuration.shrinkTimeLimit == .milliseconds(500))
        #expect(warnings == ["PETSPOT_CASES_SCALE=-1 is not a positive number; ignored"])
    }

    @Test("the replay line carries the case scale that shaped the run")
    func replayLineWithScale() throws {
        let failure = try #require(Property("scaled", Gen.int(in: 0...100)) { $0 < 50 }
            .check(PropertyConfiguration(seed: 8), environment: ["PETSPOT_CASES_SCALE": "2"]).failure)
        #expect(failure.replayLine == "PETSPOT_SEED=8 PETSPOT_CASES_SCALE=2 swift test --filter \"scaled\"")
    }

    @Test("too many discards give up, naming the exhausted filter and its budget")
    func gaveUp() {
        let never = Gen.int(in: 0...10).filter("impossible", maxAttempts: 5) { $0 > 10 }
        let result = Property("doomed", never) { _ in true }.check(PropertyConfiguration(cases: 10, seed: 3, readsEnvironment: false))
        guard case .gaveUp(let giveUp) = result else {
            Issue.record("expected giving up, got \(result.report)")
            return
        }
        #expect(giveUp.cases == 0 && giveUp.discarded == 100)
        #expect(giveUp.reason.contains("filter \"impossible\" rejected 5 draws in a row (discard budget 5)"))
    }

    @Test("assume discards cases without failing them")
    func assumptions() {
        let result = Property("odd halves", Gen.int(in: 0...100)) { value in
            try assume(value % 2 == 0, "value is even")
            return value / 2 * 2 == value
        }.check(fixed)
        guard case .passed(let pass) = result else {
            Issue.record("expected a pass, got \(result.report)")
            return
        }
        #expect(pass.discarded > 0 && pass.cases == 200)
    }

    @Test("coverage requirements fail the run when a label is too rare, saying which and how rare")
    func coverage() {
        let property = Property("coverage", Gen.int(in: 0...1000)) { value in
            classify(value == 7, "seven")
            classify(value % 2 == 0, "even")
            return true
        }
        let met = property.requireCoverage("even", atLeast: 30).check(fixed)
        #expect(met.isPassed)
        let result = property.requireCoverage("even", atLeast: 30).requireCoverage("seven", atLeast: 10).check(fixed)
        guard case .coverageNotMet(let shortfall) = result else {
            Issue.record("expected a coverage shortfall, got \(result.report)")
            return
        }
        #expect(shortfall.misses.map(\.label) == ["seven"])
        #expect(shortfall.misses.first?.required == 10)
        #expect((shortfall.misses.first?.actual ?? 100) < 10)
        #expect(shortfall.report.contains("label \"seven\" covered"))
        #expect(shortfall.report.contains("required at least 10%"))
    }

    @Test("coverage is judged statistically: too few cases run more instead of failing by chance")
    func coverageNeedsEvidence() {
        let property = Property("few cases", Gen.int(in: 0...99)) { value in
            classify(value < 20, "small")
            return true
        }
        .requireCoverage("small", atLeast: 5)
        var configuration = fixed
        configuration.cases = 10
        let result = property.check(configuration)
        guard case .passed(let pass) = result else {
            Issue.record("a label on about a fifth of the cases met a 5% requirement, got \(result.report)")
            return
        }
        #expect(pass.cases > 10, "ten cases cannot prove 5% coverage; the runner should have run more")
        #expect(pass.cases <= 100)
        // A label that never occurs is missed as soon as that is certain.
        let never = Property("never", Gen.int(in: 0...99)) { value in
            classify(value > 1000, "never")
            return true
        }
        .requireCoverage("never", atLeast: 5).check(configuration)
        guard case .coverageNotMet(let shortfall) = never else {
            Issue.record("expected a shortfall, got \(never.report)")
            return
        }
        #expect(shortfall.labels.total <= 100)
    }

    @Test("a saved failure is replayed first on the next run, and forgotten once it passes")
    func failureDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-failure-db-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = fixed
        configuration.failureDirectory = directory.path
        let buggy = Property("saved failure", Gen.int(in: 0...1000)) { $0 < 500 }
        let first = try #require(buggy.check(configuration).failure)
        #expect(first.shrunk == 500 && first.caseIndex >= 0)
        let file = directory.appendingPathComponent("saved_failure.choices")
        #expect(FileManager.default.fileExists(atPath: file.path))
        // Another seed would have to find it again; the saved failure comes first.
        configuration.seed = 1
        let second = try #require(buggy.check(configuration).failure)
        #expect(second.caseIndex == -1 && second.shrunk == 500)
        #expect(second.report.contains("saved failure"))
        let fromEnvironment = PropertyConfiguration().applyingEnvironment(["PETSPOT_FAILURE_DB": directory.path]).0
        #expect(fromEnvironment.failureDirectory == directory.path)
        let fixedProperty = Property("saved failure", Gen.int(in: 0...1000)) { $0 <= 1000 }
        #expect(fixedProperty.check(configuration).isPassed)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("shrink budgets stop shrinking early, still report a failing value, and say it is not minimal")
    func shrinkBudget() throws {
        var configuration = fixed
        configuration.maxShrinkSteps = 3
        let failure = try #require(check("budget", Gen.int(in: 0...1_000_000), configuration: configuration) { $0 < 10 }.failure)
        #expect(failure.shrinkAttempts == 3)
        #expect(failure.shrunk >= 10)
        #expect(failure.stopReason == .replayBudget && !failure.isMinimal)
        #expect(failure.shrinkStatus == "not minimal: shrinking stopped after 3 replays (the replay budget, maxShrinkSteps)")
        #expect(failure.report.contains(failure.shrinkStatus))
        configuration.shrinks = false
        let unshrunk = try #require(check("off", Gen.int(in: 0...1_000_000), configuration: configuration) { $0 < 10 }.failure)
        #expect(unshrunk.shrunk == unshrunk.original && unshrunk.shrinkAttempts == 0)
        #expect(unshrunk.stopReason == .disabled && unshrunk.shrinkStatus.hasPrefix("not shrunk"))
    }

    @Test("a shrink that finds nothing smaller is minimal; the stall and time budgets name themselves")
    func stopReasons() throws {
        let minimal = try #require(check("minimal", Gen.int(in: 0...1_000_000), configuration: fixed) { $0 < 10 }.failure)
        #expect(minimal.stopReason == .minimal && minimal.isMinimal && minimal.shrunk == 10)
        #expect(minimal.shrinkStatus == "minimal: no shrink pass finds a smaller failing case")
        #expect(minimal.shrinkPasses.contains { $0.name == "minimizeChoices" && $0.improvements > 0 })
        #expect(minimal.shrinkPasses.map(\.replays).reduce(0, +) == minimal.shrinkAttempts - 1, "one replay learns the structure")
        var stalling = fixed
        stalling.shrinkStallLimit = 2
        let stalled = try #require(check("stall", Gen.int(in: 0...1_000_000).array(count: 5...5), configuration: stalling) {
            $0.reduce(0, +) < 10
        }.failure)
        #expect(stalled.stopReason == .stallBudget)
        #expect(stalled.shrinkStatus.contains("(the stall budget, shrinkStallLimit"))
        var hurried = fixed
        hurried.shrinkTimeLimit = .zero
        let late = try #require(check("deadline", Gen.int(in: 0...1_000_000), configuration: hurried) { $0 < 10 }.failure)
        #expect(late.stopReason == .deadline && late.shrinkAttempts == 0 && late.shrunk == late.original)
        #expect(late.shrinkStatus.hasPrefix("not minimal: shrinking stopped after 0 replays (the deadline, shrinkTimeLimit"))
    }

    @Test("the size parameter grows from 0 to the maximum over a run")
    func sizeGrowth() {
        final class Sizes { var seen: [Int] = [] }
        let sizes = Sizes()
        let gen = Gen<Int>.sized { Gen.constant($0) }
        _ = Property("sizes", gen) { size in
            sizes.seen.append(size)
            return true
        }.check(PropertyConfiguration(cases: 11, seed: 1, maxSize: 50, readsEnvironment: false))
        #expect(sizes.seen == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
    }
}
