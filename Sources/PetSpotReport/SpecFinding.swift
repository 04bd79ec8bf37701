import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// A property the specification's own rule cannot meet: the reference model, which follows the
/// specification, fails it too. Reported once per run with the smallest scenario that shows it and
/// what it does to a user, apart from the app's deviations, and never counted as a failure: an
/// app that follows the specification passes.
public struct SpecFinding: Sendable, Hashable {
    /// The report group.
    public var group: String
    /// The property (contract) the specification cannot meet.
    public var property: String
    /// What goes wrong, in one sentence.
    public var message: String
    /// What it does to the user.
    public var consequence: String
    /// The scenario, shrunk, as a person can replay it by hand.
    public var steps: [FailureStep]
    /// The command line that replays the run.
    public var replay: String?

    /// Creates a finding.
    public init(group: String, property: String, message: String, consequence: String, steps: [FailureStep], replay: String? = nil) {
        self.group = group
        self.property = property
        self.message = message
        self.consequence = consequence
        self.steps = steps
        self.replay = replay
    }
}
