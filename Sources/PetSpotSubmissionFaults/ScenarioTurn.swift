import Foundation
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

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
