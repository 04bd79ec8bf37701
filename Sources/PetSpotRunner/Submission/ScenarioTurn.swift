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

/// One turn of a scenario: the user's action, the app's answer, and every connection the app
/// opened meanwhile.
package struct ScenarioTurn: Sendable {
    /// What the user did.
    package var action: UserAction
    /// The app's answer.
    package var turn: AppTurn
    /// The connections the app opened during the turn, in order.
    package var exchanges: [ProxiedExchange]
    /// How many connections the app had opened in the scenario before this turn.
    package var connectionsBefore: Int
}
