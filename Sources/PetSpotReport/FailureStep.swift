import Foundation
import PetSpotConcurrency
import PetSpotJSON

/// One step of a failing scenario: a request of a sequence, a request of a submission and the fault
/// the runner applied to it, or a user's action and what the app showed.
public struct FailureStep: Sendable, Hashable {
    /// Which client ran the step when steps ran at once (`client 1`, `client 2`); `nil` for a step
    /// every later one waited for.
    public var lane: String?
    /// What the step did, e.g. `create #1 with microchip A (new)`.
    public var action: String
    /// What came of it: the answer, the fault applied, what the app showed.
    public var outcome: String
    /// The request, redacted; `nil` for a step that sends none (the user taps Cancel).
    public var request: ReportedRequest?
    /// A command that sends the request on its own (a `curl` line reading secrets from the
    /// environment), when the target is reached over HTTP.
    public var reproduce: String?

    /// Creates a step.
    public init(lane: String? = nil, action: String, outcome: String, request: ReportedRequest? = nil, reproduce: String? = nil) {
        self.lane = lane
        self.action = action
        self.outcome = outcome
        self.request = request
        self.reproduce = reproduce
    }

    /// `3. [client 1] create #2 -> 201`.
    public func line(number: Int) -> String {
        "\(number). " + (lane.map { "[\($0)] " } ?? "") + action + " -> " + outcome
    }
}
