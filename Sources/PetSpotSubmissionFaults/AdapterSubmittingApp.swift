import Foundation
import PetSpotAdapterDriving
import PetSpotConcurrency
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel

/// An app's adapter speaking protocol version 2, asked through the same process as its flow
/// questions. Each answer may take the oracle's time-out plus `heldAnswerSeconds`: an app that
/// never gives up on a held answer answers only once the network has closed it.
package struct AdapterSubmittingApp: SubmittingApp {
    let oracle: AdapterOracle
    /// The longest the network holds an answer, in seconds.
    let heldAnswerSeconds: Double

    /// The app behind `oracle`, meeting a network that holds an answer at most `heldAnswerSeconds`.
    package init(oracle: AdapterOracle, heldAnswerSeconds: Double) {
        self.oracle = oracle
        self.heldAnswerSeconds = heldAnswerSeconds
    }

    package var name: String { oracle.name }

    package func submit(_ flowCase: FlowCase, over network: SubmissionNetwork) -> (report: Int, turn: AppTurn) {
        let reportId = Locked(0)
        let turn = ask { id in
            reportId.withLock { $0 = id }
            return SubmissionQuestion.submit(
                id: id, flowCase, baseURL: network.baseURL, requestTimeout: network.requestTimeout, photoPath: network.photoPath)
        }
        return (reportId.withLock { $0 }, turn)
    }

    package func tryAgain(report: Int) -> AppTurn { ask { SubmissionQuestion.tryAgain(id: $0, report: report) } }

    package func cancel(report: Int) -> AppTurn { ask { SubmissionQuestion.cancel(id: $0, report: report) } }

    /// Asks `question`; an adapter that speaks only version 1 answers it `unsupported`
    /// (``AdapterProtocolError/unsupported(version:)``: its declaration on the first submission
    /// question, a protocol failure after that).
    private func ask(_ question: (Int) -> JSONValue) -> AppTurn {
        let asked = oracle.askSubmission(question, extraSeconds: heldAnswerSeconds) { line, id throws(AdapterProtocolError) in
            if AdapterAnswer.declaresVersionOneOnly(line, expectedId: id) { throw .unsupported(version: 2) }
            return try SubmissionAnswer(line: line, expectedId: id)
        }
        return AppTurn(question: asked.question, answerLine: asked.answerLine, answer: asked.answer, standardError: asked.standardError)
    }
}
