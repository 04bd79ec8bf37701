import Foundation
import PetSpotConcurrency
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotReport

/// How `check` drives an app's submission through a faulty network.
package struct SubmissionSettings: Sendable {
    /// Scenarios generated (0: the group does not run).
    package var scenarios: Int
    /// The rule the reference model follows on Try Again.
    package var rule: SubmissionRule
    /// Seconds the app waits for each answer (sent in every `submit` question).
    package var requestTimeout: Double
    /// Seconds the shrinker may spend on one property.
    package var shrinkSeconds: Double
    /// Whether an adapter that declares protocol version 1 only fails the run
    /// (`--require-submission`) rather than having its submission skipped with a note.
    package var requiresVersion2 = false
    /// The choices of one scenario to run alone (`check --submission-scenario`, the replay line of
    /// a failure), instead of `scenarios` generated ones.
    package var replayScenario: [UInt64]?

    /// The name of the group these settings drive (`check` runs it alone to replay a scenario).
    package static let groupName = "submission under faults"

    /// What a default `check` uses: 40 scenarios, report-flows.md's rule, a 0.3 s time-out (every
    /// answer held past it costs that long; the proxy answers a healthy request in milliseconds),
    /// `check`'s shrinking time per property.
    package static let defaults = SubmissionSettings(
        scenarios: 40, rule: .spec, requestTimeout: 0.3, shrinkSeconds: CheckSettings.defaults.shrinkSeconds)

    /// Settings.
    package init(
        scenarios: Int, rule: SubmissionRule, requestTimeout: Double, shrinkSeconds: Double, requiresVersion2: Bool = false,
        replayScenario: [UInt64]? = nil
    ) {
        self.scenarios = scenarios
        self.rule = rule
        self.requestTimeout = requestTimeout
        self.shrinkSeconds = shrinkSeconds
        self.requiresVersion2 = requiresVersion2
        self.replayScenario = replayScenario
    }
}
