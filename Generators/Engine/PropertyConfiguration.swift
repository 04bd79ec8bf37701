import Foundation

/// How a property runs: case count, seed, size growth and shrinking budgets.
///
/// Defaults suit unit tests: 100 cases, a random seed, sizes growing from 0 to 100,
/// at most 20,000 shrink replays, stopping after 1,000 replays without improvement or
/// 10 seconds of shrinking, whichever comes first. A failure whose shrinking a budget ended
/// says so (``PropertyFailure/stopReason``): its counterexample may not be minimal.
///
/// Environment variables (read when ``readsEnvironment`` is `true`, the default):
/// - `PETSPOT_SEED`: a decimal or `0x` hexadecimal seed used by every property: the replay
///   switch printed in failure messages. It overrides ``seed``.
/// - `PETSPOT_CASES_SCALE`: a positive factor applied to ``cases`` (e.g. `10` for a nightly
///   run, `0.1` for a smoke run); the result is rounded up to at least one case.
/// - `PETSPOT_MAX_SHRINK_SECONDS`: overrides ``shrinkTimeLimit`` (seconds, may be fractional).
/// - `PETSPOT_FAILURE_DB`: a directory where each property's last shrunk failure is saved and
///   replayed first on the next run (``failureDirectory``).
///
/// ```swift
/// var configuration = PropertyConfiguration(cases: 500)
/// configuration.seed = 1234567          // pin while debugging; remove afterwards
/// ```
public struct PropertyConfiguration: Sendable, Hashable {
    /// Test cases to run (before `PETSPOT_CASES_SCALE`); discarded cases do not count.
    public var cases: Int
    /// The seed; `nil` picks a fresh random one per run (printed on failure).
    public var seed: UInt64?
    /// The largest size parameter; case *k* of *n* gets size `maxSize * k / (n - 1)`.
    public var maxSize: Int
    /// Discarded cases allowed per requested case before the run gives up.
    public var maxDiscardRatio: Int
    /// The choice budget of one test case (bounds runaway recursion and huge values).
    public var maxChoicesPerCase: Int
    /// Whether a failure is shrunk at all.
    public var shrinks: Bool
    /// The most replays the shrinker may run (its steps).
    public var maxShrinkSteps: Int
    /// Replays without improvement after which the shrinker stops.
    public var shrinkStallLimit: Int
    /// The wall-clock budget for shrinking one failure.
    public var shrinkTimeLimit: Duration
    /// Whether the `PETSPOT_*` environment variables apply.
    public var readsEnvironment: Bool
    /// A directory where each property's last shrunk failure is saved and replayed first on the
    /// next run (Hypothesis's example database); `nil` (the default) saves nothing. Set it with
    /// `PETSPOT_FAILURE_DB` for a local fix-and-rerun loop.
    public var failureDirectory: String? = nil
    /// A signal another thread can flip to end the run early (see ``StopSignal``): checked before
    /// each case and each shrink replay. `nil` (the default): the run ends on its own.
    public var stopSignal: StopSignal? = nil

    /// Creates a configuration; every parameter has the unit-test default.
    public init(
        cases: Int = 100, seed: UInt64? = nil, maxSize: Int = 100, maxDiscardRatio: Int = 10,
        maxChoicesPerCase: Int = 8192, shrinks: Bool = true, maxShrinkSteps: Int = 20_000,
        shrinkStallLimit: Int = 1_000, shrinkTimeLimit: Duration = .seconds(10), readsEnvironment: Bool = true
    ) {
        self.cases = cases
        self.seed = seed
        self.maxSize = maxSize
        self.maxDiscardRatio = maxDiscardRatio
        self.maxChoicesPerCase = maxChoicesPerCase
        self.shrinks = shrinks
        self.maxShrinkSteps = maxShrinkSteps
        self.shrinkStallLimit = shrinkStallLimit
        self.shrinkTimeLimit = shrinkTimeLimit
        self.readsEnvironment = readsEnvironment
    }

    /// The environment variable that fixes the seed of every property.
    public static let seedVariable = "PETSPOT_SEED"
    /// The environment variable that scales every property's case count.
    public static let casesScaleVariable = "PETSPOT_CASES_SCALE"
    /// The environment variable that overrides the shrink time limit, in seconds.
    public static let maxShrinkSecondsVariable = "PETSPOT_MAX_SHRINK_SECONDS"
    /// The environment variable that names the failure database directory.
    public static let failureDirectoryVariable = "PETSPOT_FAILURE_DB"

    /// Returns this configuration with the `PETSPOT_*` variables of `environment` applied.
    ///
    /// Unparsable values are ignored and reported in the returned warnings, never fatal.
    public func applyingEnvironment(_ environment: [String: String]) -> (PropertyConfiguration, warnings: [String]) {
        var result = self
        var warnings: [String] = []
        if let text = environment[Self.seedVariable] {
            if let seed = Self.parseSeed(text) {
                result.seed = seed
            } else {
                warnings.append("\(Self.seedVariable)=\(text) is not a decimal or 0x-hexadecimal UInt64; ignored")
            }
        }
        if let text = environment[Self.casesScaleVariable] {
            if let scale = Double(text), scale.isFinite, scale > 0 {
                result.cases = Swift.max(1, Int((Double(cases) * scale).rounded(.up)))
            } else {
                warnings.append("\(Self.casesScaleVariable)=\(text) is not a positive number; ignored")
            }
        }
        if let text = environment[Self.maxShrinkSecondsVariable] {
            if let seconds = Double(text), seconds.isFinite, seconds >= 0 {
                result.shrinkTimeLimit = .milliseconds(Int64(seconds * 1000))
            } else {
                warnings.append("\(Self.maxShrinkSecondsVariable)=\(text) is not a non-negative number; ignored")
            }
        }
        if let text = environment[Self.failureDirectoryVariable], !text.isEmpty {
            result.failureDirectory = text
        }
        return (result, warnings)
    }

    /// Parses a seed written in decimal or with a `0x` prefix in hexadecimal.
    public static func parseSeed(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            return UInt64(trimmed.dropFirst(2), radix: 16)
        }
        return UInt64(trimmed)
    }
}
