import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// An app's submission code, driven one report at a time: the report is submitted, then the user
/// taps Try Again or Cancel on each alert.
package protocol SubmittingApp: Sendable {
    /// Who the app is, for messages.
    var name: String { get }
    /// Fills the flow with the case's inputs and submits; the answer names the report for the
    /// turns that follow.
    func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn)
    /// The user taps Try Again on report `report`'s alert (or submits again after a Cancel).
    func tryAgain(report: Int) -> AppTurn
    /// The user taps Cancel on report `report`'s alert.
    func cancel(report: Int) -> AppTurn
}
