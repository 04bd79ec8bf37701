import Foundation

/// A named property: a generator, a body that checks one value, and coverage requirements.
///
/// Checking a property runs the body on values drawn from the generator (a growing size
/// parameter, one split of the seed per case). The body fails a case by returning `false`
/// or throwing any error (its description becomes the message); ``assume(_:_:)`` discards a
/// case. The first failure is shrunk on its choice sequence to a minimal counterexample.
///
/// ```swift
/// let result = Property("sums stay small", Gen.int(in: 0...100).array()) { values in
///     classify(values.isEmpty, "empty")
///     return values.reduce(0, +) < 1000
/// }
/// .requireCoverage("empty", atLeast: 1)
/// .check()
/// ```
///
/// Checking is synchronous and deterministic for a given seed and configuration; every
/// figure it reports is in the returned ``PropertyResult``.
public struct Property<Value> {
    /// The name, shown in reports and used in the replay line's `--filter`.
    public let name: String
    /// The generator of inputs.
    public let gen: Gen<Value>
    /// Labels that must each cover a minimum share of cases.
    public private(set) var coverage: [CoverageRequirement] = []
    private let body: (Value) throws -> Bool

    /// Creates a property whose body returns whether the value satisfies it.
    public init(_ name: String, _ gen: Gen<Value>, _ body: @escaping (Value) throws -> Bool) {
        self.name = name
        self.gen = gen
        self.body = body
    }

    /// Creates a property whose body throws when the value does not satisfy it.
    public init(_ name: String, _ gen: Gen<Value>, verifying body: @escaping (Value) throws -> Void) {
        self.init(name, gen) { value in
            try body(value)
            return true
        }
    }

    /// Returns this property with a requirement that at least `percent` percent of passing cases carry `label`.
    ///
    /// The requirement is judged statistically, running more cases when the evidence is not yet
    /// conclusive (see the engine documentation on coverage): a run fails only when the label is
    /// rarer than asked with confidence, or still rarer after ten times the requested cases.
    public func requireCoverage(_ label: String, atLeast percent: Double) -> Property {
        var copy = self
        copy.coverage.append(CoverageRequirement(label, atLeast: percent))
        return copy
    }

    /// Runs the property and returns the outcome.
    ///
    /// - Parameters:
    ///   - configuration: Cases, seed, sizes and shrink budgets.
    ///   - environment: The variables to read when the configuration reads the environment;
    ///     the process environment by default.
    public func check(
        _ configuration: PropertyConfiguration = PropertyConfiguration(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PropertyResult<Value> {
        _PropertyRunner(property: self, body: body, configuration: configuration, environment: environment).run()
    }
}

/// Checks a property whose body returns whether the value satisfies it.
///
/// Shorthand for `Property(name, gen, body).check(configuration)` with coverage requirements.
@discardableResult
public func check<Value>(
    _ name: String, _ gen: Gen<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    var property = Property(name, gen, body)
    for requirement in coverage {
        property = property.requireCoverage(requirement.label, atLeast: requirement.minimumPercent)
    }
    return property.check(configuration)
}

/// Checks a property whose body throws when the value does not satisfy it.
@discardableResult
public func check<Value>(
    _ name: String, _ gen: Gen<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    check(name, gen, configuration: configuration, coverage: coverage) { value in
        try body(value)
        return true
    }
}

/// One run of a property: generation, discards, the first failure, shrinking, coverage.
struct _PropertyRunner<Value> {
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
    let context = _CaseContext()

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
        return _PropertyContext.$current.withValue(context) { runCases() }
    }

    /// Draws a value from `testCase` and runs the body on it.
    func execute(_ testCase: TestCase) -> Outcome {
        let value: Value
        do {
            value = try property.gen.draw(testCase)
        } catch {
            return .discarded(String(describing: error))
        }
        context.labels.removeAll(keepingCapacity: true)
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
        let testCase = TestCase(random: random, size: 0, maxChoices: configuration.maxChoicesPerCase)
        let database = configuration.failureDirectory.map { _FailureDatabase(directory: $0, property: property.name) }
        // A failure saved by an earlier run is replayed first: if it still fails, it is the
        // counterexample (shrunk again); if it passes, the bug is fixed and the entry goes.
        if let database, let saved = database.load() {
            let replayed = TestCase(replaying: saved, size: configuration.maxSize, maxChoices: configuration.maxChoicesPerCase)
            if case .failed(let message, let value) = execute(replayed) {
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
            let size = cases == 1 ? configuration.maxSize : configuration.maxSize * Swift.min(passed, cases - 1) / (cases - 1)
            testCase.restart(random: random.split(), size: size)
            switch execute(testCase) {
            case .passed:
                passed += 1
                for label in context.labels { labelCounts[label, default: 0] += 1 }
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
                    _CoverageTest.verdict(count: labelCounts[$0.label] ?? 0, total: passed, percent: $0.minimumPercent) == .undecided
                }
                if undecided { target = Swift.min(extendedCases, target + Swift.max(100, cases / 2)) }
            }
        }
        let labels = LabelStatistics(counts: labelCounts, total: passed)
        let misses = property.coverage.compactMap { requirement -> CoverageShortfall.Miss? in
            let count = labelCounts[requirement.label] ?? 0
            let missed = switch _CoverageTest.verdict(count: count, total: passed, percent: requirement.minimumPercent) {
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

    func shrink(
        seed: UInt64, caseIndex: Int, size: Int, choices: [UInt64], original: Value, message: String
    ) -> PropertyFailure<Value> {
        let start = ContinuousClock.now
        context.isRecording = false
        defer { context.isRecording = true }
        let maxChoices = configuration.maxChoicesPerCase
        var shrinker = _Shrinker(
            failing: choices,
            maxAttempts: configuration.shrinks ? configuration.maxShrinkSteps : 0,
            stallLimit: configuration.shrinkStallLimit, timeLimit: configuration.shrinkTimeLimit
        ) { candidate in
            let testCase = TestCase(replaying: candidate, size: size, maxChoices: maxChoices)
            if case .failed = execute(testCase) { return (testCase.choices, testCase.spans, true) }
            return (testCase.choices, testCase.spans, false)
        }
        shrinker.shrink()
        var shrunk = original
        var shrunkMessage = message
        let final = TestCase(replaying: shrinker.best, size: size, maxChoices: maxChoices)
        if case .failed(let finalMessage, let value) = execute(final) {
            shrunk = value
            shrunkMessage = finalMessage
        }
        return PropertyFailure(
            name: property.name, seed: seed, caseIndex: caseIndex, size: size, original: original, shrunk: shrunk,
            originalChoices: choices, shrunkChoices: shrinker.best, shrinkSteps: shrinker.improvements,
            shrinkAttempts: shrinker.attempts, shrinkDuration: ContinuousClock.now - start,
            message: shrunkMessage, originalMessage: message, replayLine: replayLine(seed: seed))
    }
}

/// The statistics behind coverage requirements, after QuickCheck's `checkCoverage`.
///
/// A requirement "label on at least *p* of cases" is judged with a Wilson score interval on the
/// observed share at z = 3.29 (about one wrong verdict in two thousand, one-sided): **met** when
/// the lower bound reaches 90% of *p* (the share is near *p* or above, for sure), **missed**
/// when the upper bound is below *p* (the share is below *p*, for sure), **undecided**
/// otherwise. The runner keeps running cases while any requirement is undecided, up to ten
/// times the requested count, then falls back to comparing the observed share with *p*. So a
/// requirement neither fails a run by bad luck nor passes one on too few cases, and a smoke run
/// (`PETSPOT_CASES_SCALE=0.1`) still proves coverage by running the cases it needs.
enum _CoverageTest {
    enum Verdict { case met, missed, undecided }

    static let z = 3.29

    static func verdict(count: Int, total: Int, percent: Double) -> Verdict {
        guard total > 0 else { return .undecided }
        let required = percent / 100
        let (low, high) = wilsonInterval(successes: count, trials: total)
        if high < required { return .missed }
        if low >= 0.9 * required { return .met }
        return .undecided
    }

    static func wilsonInterval(successes: Int, trials: Int) -> (low: Double, high: Double) {
        let n = Double(trials), share = Double(successes) / n, z2 = z * z
        let center = (share + z2 / (2 * n)) / (1 + z2 / n)
        let margin = z * (share * (1 - share) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return (Swift.max(0, center - margin), Swift.min(1, center + margin))
    }
}

/// One property's entry in the failure database: its last shrunk choice sequence, one file per
/// property (`<directory>/<name>.choices`, decimal choices separated by spaces). Unreadable
/// entries are ignored and I/O errors never fail a run.
struct _FailureDatabase {
    let file: URL

    init(directory: String, property name: String) {
        let safeName = String(name.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
        })
        file = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(safeName + ".choices")
    }

    func load() -> [UInt64]? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let choices = text.split(whereSeparator: \.isWhitespace).map { UInt64($0) }
        guard !choices.isEmpty, !choices.contains(nil) else { return nil }
        return choices.compactMap { $0 }
    }

    func save(_ choices: [UInt64]) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data((choices.map(String.init).joined(separator: " ") + "\n").utf8).write(to: file, options: .atomic)
    }

    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
