import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotModel

/// A program whose answers break the contract.
struct ProgramFailure: Sendable {
    var contract: SequenceContract
    var message: String
    var expected: String
    /// Every step shown, in the order that explains the most, the failing one included.
    var steps: [ShownStep]
    /// The position of the failing step in `steps`.
    var failingIndex: Int
    /// Whether the steps ran from several clients at once.
    var concurrent: Bool
    /// Whether a request got no answer at all (the target is gone or too slow): no shrinking, and
    /// no more programs.
    var noAnswer = false
}
