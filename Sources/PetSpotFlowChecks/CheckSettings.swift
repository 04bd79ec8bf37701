/// What `check` runs with: the one place each of its defaults is written. The command's options
/// take their defaults from ``defaults``, and so do ``FlowContracts`` and the flow target.
public struct CheckSettings: Sendable, Equatable {
    /// Flow cases before coverage is judged (`--cases`); reports submitted to the mock.
    public var cases: Int
    /// The adapter's command line (`--sut`), run with `/bin/sh -c`; `nil`: the reference model.
    public var adapterCommand: String?
    /// Seconds to wait for each adapter answer (`--sut-timeout`, also `record`'s).
    public var adapterTimeout: Double
    /// Seconds the flow cases may take (`--budget`); coverage not met by then fails the run.
    public var budgetSeconds: Double
    /// Causes of failure shrunk and printed in full (`--max-failures`).
    public var maxFailures: Int
    /// Seconds the shrinker may spend on one cause of failure (`--shrink-seconds`).
    public var shrinkSeconds: Double
    /// Whether the accepted reports go to the in-process strict mock (`--no-mock` turns it off).
    public var usesMock: Bool

    /// A default `check`: 200 cases (more while a boundary is undecided), the reference model,
    /// 5 s per adapter answer, a 60 s budget, 10 causes shown, 5 s of shrinking each, the mock.
    public static let defaults = CheckSettings(
        cases: 200, adapterCommand: nil, adapterTimeout: 5, budgetSeconds: 60, maxFailures: 10, shrinkSeconds: 5, usesMock: true)

    /// Settings.
    public init(
        cases: Int, adapterCommand: String?, adapterTimeout: Double, budgetSeconds: Double, maxFailures: Int, shrinkSeconds: Double,
        usesMock: Bool
    ) {
        self.cases = cases
        self.adapterCommand = adapterCommand
        self.adapterTimeout = adapterTimeout
        self.budgetSeconds = budgetSeconds
        self.maxFailures = maxFailures
        self.shrinkSeconds = shrinkSeconds
        self.usesMock = usesMock
    }
}
