import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotFlowChecks
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
    /// When there is no answer: what the adapter wrote on standard error while it was asked.
    package var standardError = StandardErrorExcerpt()
}
