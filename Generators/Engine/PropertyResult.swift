/// How often each label occurred among the passing cases of a run.
///
/// ```swift
/// stats.share(of: "empty")   // 12.5 (percent)
/// ```
public struct LabelStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Cases that carried each label.
    public let counts: [String: Int]
    /// Passing cases counted (the denominator of every share).
    public let total: Int

    /// Creates statistics from per-label counts over `total` cases.
    public init(counts: [String: Int], total: Int) {
        self.counts = counts
        self.total = total
    }

    /// The percentage (0 to 100) of counted cases that carried `label`.
    public func share(of label: String) -> Double {
        total == 0 ? 0 : Double(counts[label, default: 0]) * 100 / Double(total)
    }

    /// One `label: share% (count)` line per label, most frequent first.
    public var description: String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key): \(Self.percent(share(of: $0.key)))% (\($0.value) of \(total))" }
            .joined(separator: "\n")
    }

    static func percent(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}

/// A minimum share of cases that must carry a label for a property to pass.
public struct CoverageRequirement: Sendable, Hashable {
    /// The label (see ``label(_:)``).
    public let label: String
    /// The required share of passing cases, in percent (0 to 100).
    public let minimumPercent: Double

    /// Requires that at least `minimumPercent` percent of passing cases carry `label`.
    public init(_ label: String, atLeast minimumPercent: Double) {
        self.label = label
        self.minimumPercent = minimumPercent
    }
}

/// A property run in which every case passed.
public struct PropertyPass: Sendable, Hashable {
    /// The property's name.
    public let name: String
    /// The seed of the run.
    public let seed: UInt64
    /// Passing cases run.
    public let cases: Int
    /// Cases discarded by filters, assumptions or the choice budget.
    public let discarded: Int
    /// Label statistics over the passing cases.
    public let labels: LabelStatistics
    /// Wall-clock time of the run.
    public let elapsed: Duration
}

/// A property run that found a counterexample, with the original and the shrunk one.
///
/// ``report`` is the message test integrations print: the shrunk and the original
/// counterexample (through `String(reflecting:)`), whether the shrunk one is minimal or why
/// shrinking stopped short, the error, the seed, a replay line and what each shrink pass did.
/// Rerunning with ``seed`` reproduces the same original and shrunk counterexample (unless a
/// time limit or the stop signal ended shrinking: those depend on the clock).
///
/// ```swift
/// if let failure = result.failure {
///     print(failure.shrunk, failure.shrinkStatus)   // [1000] minimal: no shrink pass finds a smaller failing case
/// }
/// ```
public struct PropertyFailure<Value> {
    /// The property's name.
    public let name: String
    /// The seed of the run; set `PETSPOT_SEED` or ``PropertyConfiguration/seed`` to it to replay.
    public let seed: UInt64
    /// The zero-based index of the failing case among the cases run (discarded ones included);
    /// `-1` for the failure an earlier run saved (``PropertyConfiguration/failureDirectory``), replayed first.
    public let caseIndex: Int
    /// The size parameter of the failing case.
    public let size: Int
    /// The counterexample as first found.
    public let original: Value
    /// The shrunk (minimal found) counterexample.
    public let shrunk: Value
    /// The choice sequence of the original counterexample.
    public let originalChoices: [UInt64]
    /// The choice sequence of the shrunk counterexample.
    public let shrunkChoices: [UInt64]
    /// Accepted shrinks: how many times a simpler failing sequence was found.
    public let shrinkSteps: Int
    /// Replays the shrinker ran, accepted or not.
    public let shrinkAttempts: Int
    /// Wall-clock time spent shrinking.
    public let shrinkDuration: Duration
    /// Why shrinking stopped: ``ShrinkStopReason/minimal`` when no shrink pass found anything
    /// smaller, otherwise the budget, deadline or stop signal that cut it short.
    public let stopReason: ShrinkStopReason
    /// The replays and improvements of each shrink pass that ran, in the order passes run.
    public let shrinkPasses: [ShrinkPassStatistics]
    /// Why the shrunk counterexample fails (a thrown error's description, or a false result).
    public let message: String
    /// Why the original counterexample failed.
    public let originalMessage: String
    /// The environment-variable line that replays this run.
    public let replayLine: String

    /// Whether the shrunk counterexample is minimal (no shrink pass found a smaller one).
    public var isMinimal: Bool { stopReason.isMinimal }

    /// One line saying whether the shrunk counterexample is minimal, and if not, what stopped
    /// shrinking: `minimal: no shrink pass finds a smaller failing case`, or for example
    /// `not minimal: shrinking stopped after 20000 replays (the replay budget, maxShrinkSteps)`.
    public var shrinkStatus: String {
        switch stopReason {
        case .minimal: "minimal: no shrink pass finds a smaller failing case"
        case .replayBudget:
            "not minimal: shrinking stopped after \(shrinkAttempts) replays (the replay budget, maxShrinkSteps)"
        case .stallBudget:
            "not minimal: shrinking stopped after \(shrinkAttempts) replays (the stall budget, shrinkStallLimit: "
                + "that many replays in a row found nothing smaller)"
        case .deadline:
            "not minimal: shrinking stopped after \(shrinkAttempts) replays (the deadline, shrinkTimeLimit, "
                + "at \(PropertyFailure.seconds(shrinkDuration)) s)"
        case .cancelled: "not minimal: shrinking stopped: cancelled after \(shrinkAttempts) replays"
        case .disabled: "not shrunk: shrinking is off (shrinks = false)"
        }
    }

    /// The multi-line failure message: counterexamples, shrink status, error, seed, replay line,
    /// shrink figures and the work of each shrink pass.
    public var report: String {
        var text = """
            Property "\(name)" failed: \(message)
            Shrunk counterexample (\(shrinkStatus); \(shrinkSteps) shrink steps, \(shrinkAttempts) replays, \
            \(PropertyFailure.seconds(shrinkDuration)) s):
              \(String(reflecting: shrunk))
            Original counterexample (\(caseIndex < 0 ? "saved failure" : "case \(caseIndex + 1)"), size \(size)):
              \(String(reflecting: original))
            Original error: \(originalMessage)
            Seed: \(seed)
            Replay: \(replayLine)
              or pass PropertyConfiguration(seed: \(seed)) while debugging
            """
        if !shrinkPasses.isEmpty {
            text += "\nShrink passes (replays/improvements): " + shrinkPasses.map(\.description).joined(separator: ", ")
        }
        return text
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format3: value)
    }
}

extension PropertyFailure: Sendable where Value: Sendable {}

extension String {
    init(format3 value: Double) {
        let thousandths = Int64((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        self = "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// A property run that stopped before reaching its case count, with the reason.
public struct PropertyGiveUp: Sendable, Hashable {
    /// The property's name.
    public let name: String
    /// The seed of the run.
    public let seed: UInt64
    /// Passing cases run before giving up.
    public let cases: Int
    /// Cases discarded.
    public let discarded: Int
    /// Why, naming the most frequent discard reason (a filter and its budget, an assumption).
    public let reason: String

    /// The message test integrations print.
    public var report: String {
        "Property \"\(name)\" gave up after \(cases) passing and \(discarded) discarded cases (seed \(seed)): \(reason)"
    }
}

/// A property run that its stop signal (``PropertyConfiguration/stopSignal``) ended before any
/// case failed.
///
/// The cases that ran all passed, but the run is not a pass: it checked fewer cases than asked.
public struct PropertyStop: Sendable, Hashable {
    /// The property's name.
    public let name: String
    /// The seed of the run.
    public let seed: UInt64
    /// Passing cases run before the stop.
    public let cases: Int
    /// Cases discarded before the stop.
    public let discarded: Int
    /// Wall-clock time of the run.
    public let elapsed: Duration

    /// The message test integrations print.
    public var report: String {
        "Property \"\(name)\" was stopped (cancelled) after \(cases) passing and \(discarded) discarded cases (seed \(seed))"
    }
}

/// A property run whose cases all passed but where some labels were rarer than required.
public struct CoverageShortfall: Sendable, Hashable {
    /// One label that was too rare.
    public struct Miss: Sendable, Hashable {
        /// The label.
        public let label: String
        /// The share required, in percent.
        public let required: Double
        /// The share observed, in percent.
        public let actual: Double
    }

    /// The property's name.
    public let name: String
    /// The seed of the run.
    public let seed: UInt64
    /// The labels that missed their requirement.
    public let misses: [Miss]
    /// The full label statistics of the run.
    public let labels: LabelStatistics
    /// The environment-variable line that replays this run.
    public let replayLine: String

    /// The message test integrations print.
    public var report: String {
        let lines = misses.map {
            "label \"\($0.label)\" covered \(LabelStatistics.percent($0.actual))% of \(labels.total) cases; "
                + "required at least \(LabelStatistics.percent($0.required))%"
        }
        return "Property \"\(name)\" did not reach its coverage requirements (seed \(seed)):\n"
            + lines.joined(separator: "\n") + "\nAll labels:\n" + labels.description + "\nReplay: \(replayLine)"
    }
}

/// The outcome of running a property.
///
/// ```swift
/// switch check("sum", gen, { xs in xs.reduce(0, +) < 10 }) {
/// case .passed(let pass): print(pass.labels)
/// case .failed(let failure): print(failure.report)
/// case .gaveUp(let giveUp): print(giveUp.report)
/// case .coverageNotMet(let shortfall): print(shortfall.report)
/// case .stopped(let stop): print(stop.report)
/// }
/// ```
public enum PropertyResult<Value> {
    /// Every case passed and every coverage requirement was met.
    case passed(PropertyPass)
    /// A case failed; the failure holds the original and shrunk counterexample.
    case failed(PropertyFailure<Value>)
    /// Too many cases were discarded.
    case gaveUp(PropertyGiveUp)
    /// Every case passed but a label was rarer than required.
    case coverageNotMet(CoverageShortfall)
    /// The stop signal ended the run before any case failed.
    case stopped(PropertyStop)

    /// Whether the property passed.
    public var isPassed: Bool {
        if case .passed = self { return true }
        return false
    }

    /// The failure, if a counterexample was found.
    public var failure: PropertyFailure<Value>? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    /// The message to show: the report of a failure, give-up or shortfall, or a pass summary.
    public var report: String {
        switch self {
        case .passed(let pass):
            "Property \"\(pass.name)\" passed \(pass.cases) cases (\(pass.discarded) discarded, seed \(pass.seed))"
        case .failed(let failure): failure.report
        case .gaveUp(let giveUp): giveUp.report
        case .coverageNotMet(let shortfall): shortfall.report
        case .stopped(let stop): stop.report
        }
    }
}

extension PropertyResult: Sendable where Value: Sendable {}
