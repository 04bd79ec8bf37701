import Foundation
import PetSpotConcurrency
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

/// What came of running one program.
enum ProgramOutcome: Sendable {
    /// Every answer kept the contract; the contracts exercised and the requests sent.
    case passed(exercised: Set<SequenceContract>, requests: Int)
    /// An answer broke it.
    case failed(ProgramFailure, requests: Int)
    /// The budget refused the program's requests (or the run was interrupted).
    case refused

    /// Requests sent (the deletes that end the program included).
    var requests: Int {
        switch self {
        case .passed(_, let requests), .failed(_, let requests): requests
        case .refused: 0
        }
    }
}
