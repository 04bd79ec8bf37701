import Foundation
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// What the user did at one turn of a scenario.
package enum UserAction: Sendable, Hashable {
    /// Filled the report and tapped its submit button.
    case submit
    /// Tapped Try Again (or the submit button again after a Cancel).
    case tryAgain
    /// Tapped Cancel on the alert.
    case cancel
}
