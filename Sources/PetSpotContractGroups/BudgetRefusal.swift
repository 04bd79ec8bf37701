import Foundation
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport

/// A request the budget did not pay for, so it was not sent: the budget was reached, or the run
/// was stopped.
package struct BudgetRefusal: Error, Sendable, CustomStringConvertible {
    /// Why the run stopped granting requests, or `nil` when the budget was reached.
    package let reason: String?

    package var description: String { reason ?? "the request budget was reached" }
}
