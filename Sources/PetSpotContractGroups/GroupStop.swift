import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotReport
import PetSpotRuntime

/// Why a backend group stops before its end.
package enum GroupStop: Error, Sendable {
    /// The budget refused a request (or the run was interrupted): nothing more is sent.
    case requestsRefused
    /// The target cannot be reached at all: the whole run stops (exit code 3).
    case unreachable(RunnerError)
}
