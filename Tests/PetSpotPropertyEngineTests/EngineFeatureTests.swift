import Foundation
import PetSpotConcurrency
@testable import PetSpotPropertyEngine
import PetSpotTestSupport
import Testing

@Suite("Integer order, deferred recursion, repeated values", .onOwnThreads)
struct GenerationFeatureTests {
    @Test("integers are recorded in the order 0, 1, -1, 2, -2, ...: one choice, 1 and -1 equally simple")
    func zigzagOrder() throws {
        let symmetric = Gen.int(in: -3...3)
        #expect(try (0...6).map { try symmetric.replay([$0]) } == [0, 1, -1, 2, -2, 3, -3])
        // Past the shorter side, the longer side continues in order.
        let lopsided = Gen.int(in: -1...3)
        #expect(try (0...4).map { try lopsided.replay([$0]) } == [0, 1, -1, 2, 3])
        #expect(try Gen.int(in: 10...20).replay([3]) == 13)
        #expect(try Gen<Int16>.integer(in: 100...200, shrinkingToward: 150).replay([2]) == 149)
    }

    @Test("the integer order is a bijection on a whole type")
    func zigzagBijection() throws {
        let bytes = Gen<Int8>.anyInteger
        let values = try (0...255).map { try bytes.replay([UInt64($0)]) }
        #expect(Set(values).count == 256)
        let shape = IntegerShape(above: UInt64(Int64.max), below: UInt64(Int64.max) + 1)
        for index: UInt64 in [0, 1, 2, 3, .max - 1, .max, UInt64(Int64.max), UInt64(Int64.max) + 1] {
            let (isBelow, distance) = shape.position(ofIndex: index)
            #expect(shape.index(isBelow: isBelow, distance: distance) == index)
        }
        #expect(shape.lastIndex == .max)
        #expect(try Gen<Int64>.anyInteger.replay([.max]) == .min)
    }

    indirect enum Expression: Equatable, Sendable {
        case number(Int)
        case sum(Expression, Expression)

        var depth: Int {
            switch self {
            case .number: 0
            case .sum(let a, let b): 1 + max(a.depth, b.depth)
            }
        }
    }

    static let expressions = Gen<Expression>.deferred(maxDepth: 40) { expression in
        .frequency((2, Gen.int(in: 0...9).map(Expression.number)), (1, zip(expression, expression).map { Expression.sum($0, $1) }))
    }

    @Test("a deferred generator recurses as deep as its probabilities take it, and shrinks to its first alternative")
    func deferredRecursion() throws {
        let drawn = Self.expressions.samples(count: 500, seed: 3)
        #expect(drawn.contains { $0.depth > 4 }, "deeper than the bounded recursive generator's default")
        #expect(drawn.allSatisfy { $0.depth < 40 })
        #expect(try Self.expressions.replay([]) == .number(0))
    }

    @Test("a deferred generator nests up to its maxDepth levels and rejects a case that goes deeper, naming the limit")
    func deferredDepthLimit() throws {
        // Each level is the top-level draw or one more recursive reference: n takes n + 1 levels.
        let counter = Gen<Int>.deferred(maxDepth: 5) { this in .oneOf(.constant(0), this.map { $0 + 1 }) }
        #expect(try counter.replay([1, 1, 1, 1, 0]) == 4)
        #expect(throws: TestCaseStop.self) { try counter.replay([1, 1, 1, 1, 1, 0]) }
        let always = Gen<Expression>.deferred(maxDepth: 5) { expression in
            zip(expression, expression).map { Expression.sum($0, $1) }
        }
        #expect(throws: TestCaseStop.rejected("a deferred generator nested deeper than 5 levels (its maxDepth)")) {
            try always.sample(seed: 1)
        }
    }

    @Test("the closure form of deferred builds its generator when drawing")
    func deferredClosure() throws {
        let digits = Gen<Int>.deferred { Gen.int(in: 0...9) }
        #expect(try digits.replay([7]) == 7)
    }

    @Test("a recursive reference drawn after its generator was released rejects the case instead of crashing")
    func deferredReleased() {
        var escaped: Gen<Int>?
        var generator: Gen<Int>? = Gen<Int>.deferred { this in
            escaped = this
            return .constant(1)
        }
        #expect(generator != nil)
        generator = nil
        #expect(throws: TestCaseStop.self) { try escaped?.sample(seed: 1) }
    }

    @Test("two equal arguments are found within 100 cases, because draws repeat earlier values")
    func repeatedValues() {
        let pairs = zip(Gen.int(in: 1...Int(Int32.max)), Gen.int(in: 1...Int(Int32.max)))
        let found = (1...20).filter { seed in
            let configuration = PropertyConfiguration(cases: 100, seed: UInt64(seed), shrinks: false, readsEnvironment: false)
            return !Property("equal", pairs) { !($0 >= 10 && $0 == $1) }.check(configuration).isPassed
        }
        #expect(found.count >= 18, "found in \(found.count) of 20 runs")
    }

    @Test("two arguments one apart are found in most runs of 100 cases, because repeats are sometimes neighbours")
    func neighbouringValues() {
        let pairs = zip(Gen.int(in: 1...Int(Int32.max)), Gen.int(in: 1...Int(Int32.max)))
        let found = (1...20).filter { seed in
            let configuration = PropertyConfiguration(cases: 100, seed: UInt64(seed), shrinks: false, readsEnvironment: false)
            return !Property("adjacent", pairs) { !($0 >= 10 && abs($0 - $1) == 1) }.check(configuration).isPassed
        }
        #expect(found.count >= 10, "found in \(found.count) of 20 runs")
    }
}

@Suite("The choice tree of known outcomes", .onOwnThreads)
struct ChoiceTreeTests {
    @Test("a recorded replay decides every candidate that replays to it, clamping as a test case does")
    func simulation() {
        var tree = ChoiceTree()
        #expect(tree.outcome(of: [1, 2]) == nil)
        // A replay drew 1 (bound 3), then 2 (bound 5), and failed.
        tree.record([1, 2], bounds: [3, 5], outcome: .failed)
        #expect(tree.outcome(of: [1, 2]) == .failed)
        #expect(tree.outcome(of: [1, 2, 9, 9]) == .failed, "choices past the end are not read")
        #expect(tree.outcome(of: [1, 2, 0]) == .failed)
        #expect(tree.outcome(of: [1, 3]) == nil, "a different answer is unknown")
        tree.record([1, 0], bounds: [3, 5], outcome: .passed)
        #expect(tree.outcome(of: [1, 6]) == .passed, "6 is above the bound 5, so it is clamped to 0")
        #expect(tree.outcome(of: [1]) == .passed, "past the candidate's end the answer is 0")
        #expect(tree.outcome(of: [4]) == nil, "4 is above the bound 3: clamped to 0, a path never taken")
        tree.record([0], bounds: [3], outcome: .discarded)
        #expect(tree.outcome(of: [4]) == .discarded)
        #expect(tree.count == 5)
    }
}

@Suite("Stopping a run from outside", .onOwnThreads)
struct StopSignalTests {
    let configuration = PropertyConfiguration(cases: 1000, seed: 5, readsEnvironment: false)

    @Test("a signal stopped before any case fails ends the run with the cases run so far")
    func stopBeforeFailure() throws {
        let signal = StopSignal()
        var configuration = configuration
        configuration.stopSignal = signal
        var evaluations = 0
        let result = Property("stops", Gen.int(in: 0...9)) { _ in
            evaluations += 1
            if evaluations == 30 { signal.stop() }
            return true
        }.check(configuration)
        guard case .stopped(let stop) = result else {
            Issue.record("expected a stopped run, got \(result.report)")
            return
        }
        #expect(stop.cases == 30 && evaluations == 30)
        #expect(!result.isPassed)
        #expect(result.report.contains("was stopped (cancelled) after 30 passing"))
    }

    @Test("a signal stopped while shrinking ends with the failure found so far, marked cancelled")
    func stopWhileShrinking() throws {
        let signal = StopSignal()
        var configuration = configuration
        configuration.stopSignal = signal
        var failures = 0
        let result = Property("stops while shrinking", Gen.int(in: 0...1_000_000)) { value in
            guard value >= 1000 else { return true }
            failures += 1
            if failures == 3 { signal.stop() }
            return false
        }.check(configuration)
        let failure = try #require(result.failure)
        #expect(failure.stopReason == .cancelled && !failure.isMinimal)
        #expect(failure.shrunk >= 1000)
        #expect(failure.report.contains("not minimal: shrinking stopped: cancelled after"))
    }

    @Test("another thread's stop ends a run of slow evaluations promptly")
    func stopFromAnotherThread() throws {
        let signal = StopSignal()
        var configuration = configuration
        configuration.cases = 2000
        configuration.stopSignal = signal
        // The 20th case waits until another thread has stopped the run; the run must end right
        // after it. Judged by the cases run, not by a clock a loaded machine can stretch.
        let evaluated = Locked(0)
        let thread = Thread {
            while evaluated.withLock({ $0 }) < 20 { usleep(1_000) }
            signal.stop()
        }
        thread.start()
        let result = Property("slow", Gen.int(in: 0...9)) { _ in
            let count = evaluated.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 20 { while !signal.isStopped { usleep(1_000) } }
            Thread.sleep(forTimeInterval: 0.001)
            return true
        }.check(configuration)
        guard case .stopped(let stop) = result else {
            Issue.record("expected a stopped run, got \(result.report)")
            return
        }
        #expect(stop.cases >= 19 && stop.cases <= 21, "stopped after \(stop.cases) cases")
        #expect(signal.isStopped)
    }
}

@Suite("The failure database keys entries by name and identity", .onOwnThreads)
struct FailureDatabaseTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("petspot-db-\(UInt64.random(in: 0...UInt64.max))")
    }

    @Test("two identities of one property keep separate entries")
    func separateEntries() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = PropertyConfiguration(cases: 200, seed: 3, readsEnvironment: false)
        configuration.failureDirectory = directory.path
        func threshold(_ limit: Int) -> Property<Int> {
            Property("threshold", Gen.int(in: 0...1000)) { $0 < limit }.identified(by: "limit \(limit)")
        }
        #expect(threshold(300).check(configuration).failure?.shrunk == 300)
        #expect(threshold(700).check(configuration).failure?.shrunk == 700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2)
        configuration.seed = 4
        #expect(threshold(300).check(configuration).failure?.caseIndex == -1)
        #expect(threshold(300).check(configuration).failure?.shrunk == 300)
        #expect(threshold(700).check(configuration).failure?.shrunk == 700)
    }

    @Test("an entry's file names its key; a key line that does not match is ignored, a missing one is accepted")
    func keyLine() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = FailureDatabase(directory: directory.path, name: "a property", identity: "Suite/test() | 7")
        #expect(entry.file.lastPathComponent.hasPrefix("a_property-") && entry.file.lastPathComponent.hasSuffix(".choices"))
        entry.save([1, 2, 3])
        #expect(try String(contentsOf: entry.file, encoding: .utf8) == "# key: a property | Suite/test() | 7\n1 2 3\n")
        #expect(entry.load() == [1, 2, 3])
        try Data("# key: another property\n4 5\n".utf8).write(to: entry.file)
        #expect(entry.load() == nil)
        try Data("4 5\n".utf8).write(to: entry.file)
        #expect(entry.load() == [4, 5], "entries written before key lines still load")
        let unnamed = FailureDatabase(directory: directory.path, name: "a property", identity: nil)
        #expect(unnamed.file.lastPathComponent == "a_property.choices")
    }
}
