import Foundation
import PetSpotConcurrency
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// One answer of an app to a submission question, with the lines exchanged.
package struct AppTurn: Sendable {
    /// The question line (`nil` for the reference model, which is asked in-process).
    package var question: String?
    /// The answer line, when one came.
    package var answerLine: String?
    /// The answer, or why there is none.
    package var answer: Result<SubmissionAnswer, AdapterProtocolError>
}

/// Where an app sends its report: the proxy's base URL, the request time-out, the photo file.
package struct SubmissionNetwork: Sendable {
    /// The base URL the app is given (the fault proxy).
    package var baseURL: URL
    /// Seconds the app waits for each answer before giving up.
    package var requestTimeout: Double
    /// The photo's bytes, as a file the app reads.
    package var photoPath: String
}

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
