import Foundation

/// One run of a property: the saved failure first, then generation, discards, the first
/// failure and its shrinking, coverage; asking the stop signal before every evaluation.
struct PropertyRunner<Value> {
    enum Outcome {
        case passed
        case failed(String, Value)
        case discarded(String)
    }

    let property: Property<Value>
    let body: (Value) throws -> Bool
    let configuration: PropertyConfiguration
    let warnings: [String]
    let environment: [String: String]
    let context = CaseContext()

    init(property: Property<Value>, body: @escaping (Value) throws -> Bool,
         configuration: PropertyConfiguration, environment: [String: String]) {
        self.property = property
        self.body = body
        self.environment = environment
        if configuration.readsEnvironment {
            (self.configuration, self.warnings) = configuration.applyingEnvironment(environment)
        } else {
            (self.configuration, self.warnings) = (configuration, [])
        }
    }

    func run() -> PropertyResult<Value> {
        for warning in warnings {
            FileHandle.standardError.write(Data("PetSpotPropertyEngine: \(warning)\n".utf8))
        }
        return CaseContext.$current.withValue(context) { runCases() }
    }

    /// Whether the stop signal asks the run to end.
    var isStopped: Bool { configuration.stopSignal?.isStopped ?? false }

    /// Draws a value from `testCase` and runs the body on it.
    func execute(_ testCase: inout TestCase) -> Outcome {
        let value: Value
        do {
            value = try property.gen.draw(&testCase)
        } catch {
            return .discarded(String(describing: error))
        }
        context.state.withLock { $0.labels.removeAll(keepingCapacity: true) }
        do {
            return try body(value) ? .passed : .failed("the property returned false", value)
        } catch let stop as TestCaseStop {
            return .discarded(stop.description)
        } catch {
            return .failed(String(describing: error), value)
        }
    }

    func replayLine(seed: UInt64) -> String {
        var line = "\(PropertyConfiguration.seedVariable)=\(seed)"
        if configuration.readsEnvironment, let scale = environment[PropertyConfiguration.casesScaleVariable] {
            line += " \(PropertyConfiguration.casesScaleVariable)=\(scale)"
        }
        let filter = property.name.filter { $0 != "\"" && $0 != "\\" && $0 != "$" && $0 != "`" }
        return line + " swift test --filter \"\(filter)\""
    }

    func runCases() -> PropertyResult<Value> {
        let start = ContinuousClock.now
        let seed = configuration.seed ?? UInt64.random(in: .min ... .max)
        var random = Xoshiro256StarStar(seed: seed)
        let cases = Swift.max(1, configuration.cases)
        let discardLimit = Swift.max(1, cases * Swift.max(1, configuration.maxDiscardRatio))
        var passed = 0, discarded = 0, index = 0
        var labelCounts: [String: Int] = [:]
        var discardReasons: [String: Int] = [:]
        var testCase = TestCase(random: random, size: 0, maxChoices: configuration.maxChoicesPerCase)
        let database = configuration.failureDirectory.map {
            FailureDatabase(directory: $0, name: property.name, identity: property.identity)
        }
        func stopped() -> PropertyResult<Value> {
            .stopped(PropertyStop(
                name: property.name, seed: seed, cases: passed, discarded: discarded, elapsed: ContinuousClock.now - start))
        }
        // A failure saved by an earlier run is replayed first: if it still fails, it is the
        // counterexample (shrunk again); if it passes, the bug is fixed and the entry goes.
        if let database, let saved = database.load() {
            if isStopped { return stopped() }
            var replayed = TestCase(replaying: saved, size: configuration.maxSize, maxChoices: configuration.maxChoicesPerCase)
            if case .failed(let message, let value) = execute(&replayed) {
                let failure = shrink(
                    seed: seed, caseIndex: -1, size: configuration.maxSize, choices: replayed.choices, original: value,
                    message: "\(message) (replayed from \(database.file.path))")
                database.save(failure.shrunkChoices)
                return .failed(failure)
            }
            database.remove()
        }
        // Coverage is decided statistically: past the requested cases, more are run (up to ten
        // times as many) while a requirement is neither clearly met nor clearly missed.
        let extendedCases = property.coverage.isEmpty ? cases : cases * 10
        var target = cases
        while passed < target {
            if isStopped { return stopped() }
            let size = cases == 1 ? configuration.maxSize : configuration.maxSize * Swift.min(passed, cases - 1) / (cases - 1)
            testCase.restart(random: random.split(), size: size)
            switch execute(&testCase) {
            case .passed:
                passed += 1
                for label in context.state.withLock({ $0.labels }) { labelCounts[label, default: 0] += 1 }
            case .discarded(let reason):
                discarded += 1
                discardReasons[reason, default: 0] += 1
                if discarded >= discardLimit {
                    let (reason, count) = discardReasons.max {
                        $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key)
                    } ?? (reason, 1)
                    return .gaveUp(PropertyGiveUp(
                        name: property.name, seed: seed, cases: passed, discarded: discarded,
                        reason: "\(discarded) cases discarded (limit \(discardLimit)); most often (\(count) times): \(reason)"))
                }
            case .failed(let message, let value):
                let failure = shrink(
                    seed: seed, caseIndex: index, size: size, choices: testCase.choices,
                    original: value, message: message)
                database?.save(failure.shrunkChoices)
                return .failed(failure)
            }
            index += 1
            if passed == target && target < extendedCases {
                let undecided = property.coverage.contains {
                    CoverageTest.verdict(count: labelCounts[$0.label] ?? 0, total: passed, percent: $0.minimumPercent) == .undecided
                }
                if undecided { target = Swift.min(extendedCases, target + Swift.max(100, cases / 2)) }
            }
        }
        let labels = LabelStatistics(counts: labelCounts, total: passed)
        let misses = property.coverage.compactMap { requirement -> CoverageShortfall.Miss? in
            let count = labelCounts[requirement.label] ?? 0
            let missed = switch CoverageTest.verdict(count: count, total: passed, percent: requirement.minimumPercent) {
            case .met: false
            case .missed: true
            case .undecided: labels.share(of: requirement.label) < requirement.minimumPercent
            }
            return missed
                ? CoverageShortfall.Miss(label: requirement.label, required: requirement.minimumPercent, actual: labels.share(of: requirement.label))
                : nil
        }
        if !misses.isEmpty {
            return .coverageNotMet(CoverageShortfall(
                name: property.name, seed: seed, misses: misses, labels: labels, replayLine: replayLine(seed: seed)))
        }
        return .passed(PropertyPass(
            name: property.name, seed: seed, cases: passed, discarded: discarded, labels: labels,
            elapsed: ContinuousClock.now - start))
    }

    /// Shrinks the failing case `choices` (which drew `original`) and reports the failure.
    ///
    /// The smallest failing value is kept as replays find it, so no final replay is needed.
    func shrink(
        seed: UInt64, caseIndex: Int, size: Int, choices: [UInt64], original: Value, message: String
    ) -> PropertyFailure<Value> {
        let start = ContinuousClock.now
        context.state.withLock { $0.isRecording = false }
        defer { context.state.withLock { $0.isRecording = true } }
        let maxChoices = configuration.maxChoicesPerCase
        let signal = configuration.stopSignal
        var smallest = (choices: choices, value: original, message: message)
        let limits = Shrinker.Limits(
            maxReplays: configuration.maxShrinkSteps, stallLimit: configuration.shrinkStallLimit,
            timeLimit: configuration.shrinkTimeLimit, shouldStop: { signal?.isStopped ?? false })
        var shrinker = Shrinker(failing: choices, limits: limits) { candidate in
            var testCase = TestCase(replaying: candidate, size: size, maxChoices: maxChoices)
            let outcome: ChoiceTree.Outcome
            switch execute(&testCase) {
            case .passed: outcome = .passed
            case .discarded: outcome = .discarded
            case .failed(let failureMessage, let value):
                outcome = .failed
                if isShortlexLess(testCase.choices, smallest.choices) {
                    smallest = (testCase.choices, value, failureMessage)
                }
            }
            return Shrinker.Replay(
                outcome: outcome, choices: testCase.choices, bounds: testCase.bounds, shapes: testCase.shapes,
                spans: testCase.spans)
        }
        let stopReason = configuration.shrinks ? shrinker.shrink() : .disabled
        if smallest.choices != shrinker.best {
            // Unreachable for a deterministic property: the smallest failing replay is the best.
            var final = TestCase(replaying: shrinker.best, size: size, maxChoices: maxChoices)
            if case .failed(let finalMessage, let value) = execute(&final) {
                smallest = (shrinker.best, value, finalMessage)
            }
        }
        return PropertyFailure(
            name: property.name, seed: seed, caseIndex: caseIndex, size: size, original: original, shrunk: smallest.value,
            originalChoices: choices, shrunkChoices: shrinker.best, shrinkSteps: shrinker.improvements,
            shrinkAttempts: shrinker.replays, shrinkDuration: ContinuousClock.now - start, stopReason: stopReason,
            shrinkPasses: shrinker.passStatistics, message: smallest.message, originalMessage: message,
            replayLine: replayLine(seed: seed))
    }
}
