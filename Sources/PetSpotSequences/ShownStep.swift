import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotJSON
import PetSpotModel

/// One step as a report shows it.
struct ShownStep: Sendable {
    /// The client among parallel branches (0, 1, ...); `nil` in the prefix.
    var lane: Int?
    var action: String
    var outcome: String
    /// The step's (first) request and its answer; `nil` when nothing was sent.
    var exchange: BackendTarget.Exchange?
}
