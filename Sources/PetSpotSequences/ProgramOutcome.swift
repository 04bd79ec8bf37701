import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotModel

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
