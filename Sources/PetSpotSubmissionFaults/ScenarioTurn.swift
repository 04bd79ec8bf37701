import Foundation
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// One turn of a scenario: the user's action, the app's answer, and every request the app sent
/// meanwhile.
package struct ScenarioTurn: Sendable {
    /// What the user did.
    package var action: UserAction
    /// The app's answer.
    package var turn: AppTurn
    /// The requests the app sent during the turn, in order.
    package var exchanges: [ProxiedExchange]
    /// How many requests the app had sent in the scenario before this turn.
    package var requestsBefore: Int
    /// Connections the app opened during the turn and closed without sending a byte.
    package var abandonedConnections = 0
}
