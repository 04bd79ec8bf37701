import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotReport

/// The flow answers under test: the reference model or an app's adapter, and how cases are made
/// and shrunk.
package struct FlowTarget: Sendable {
    /// Who answers the cases.
    package let oracle: any FlowOracle
    /// Makes the generator of cases; every run that must see the same cases from the same seed
    /// takes a new one (the boundary generator keeps its cycle through the catalogue).
    package let makeGenerator: @Sendable () -> Gen<FlowCase>
    /// Seconds the shrinker may spend on one failure.
    package let shrinkSeconds: Double
    /// Whether the run also has the in-process strict mock (regressions that send a create
    /// request need it).
    package let usesMock: Bool
    /// Seconds the flow cases may take before the run stops (coverage decides the count).
    package let budgetSeconds: Double
    /// Distinct causes of failure shrunk and shown at most.
    package let maxFailures: Int
    /// Stops the flow property runs early (an interrupted `check`), if given.
    package let stopSignal: StopSignal?
    /// How the app's own submission is driven through faults (`nil`: it is not).
    package let submission: SubmissionSettings?

    /// A flow target.
    package init(
        oracle: any FlowOracle, makeGenerator: @escaping @Sendable () -> Gen<FlowCase>, shrinkSeconds: Double, usesMock: Bool,
        budgetSeconds: Double = CheckSettings.defaults.budgetSeconds, maxFailures: Int = CheckSettings.defaults.maxFailures,
        stopSignal: StopSignal? = nil, submission: SubmissionSettings? = nil
    ) {
        self.stopSignal = stopSignal
        self.submission = submission
        self.oracle = oracle
        self.makeGenerator = makeGenerator
        self.shrinkSeconds = shrinkSeconds
        self.usesMock = usesMock
        self.budgetSeconds = budgetSeconds
        self.maxFailures = maxFailures
    }

    /// Whether the oracle is an adapter program (not the reference model).
    package var isAdapter: Bool { !(oracle is ReferenceOracle) }
}
