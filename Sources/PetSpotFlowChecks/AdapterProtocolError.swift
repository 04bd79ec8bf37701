import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport
import PetSpotRuntime

/// A broken exchange with an adapter: it did not answer a question properly.
public enum AdapterProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The adapter could not be started.
    case cannotStart(String)
    /// The adapter exited (or closed its output) before answering.
    case exited(status: Int32?)
    /// The adapter was killed by a signal (it crashed) before answering.
    case crashed(signal: Int32)
    /// No answer within the per-case timeout.
    case timedOut(seconds: Double)
    /// The answer line is not a valid answer.
    case malformedAnswer(String)
    /// The answer is for another question.
    case wrongId(expected: Int, actual: Int)
    /// Too many restarts: the adapter is no longer asked.
    case gaveUp(restarts: Int)
    /// The adapter answered `unsupported` to a question of `version` where that is no
    /// declaration: to a version 1 question (every adapter speaks version 1), or to a version 2
    /// question after its first one was answered (the first one declares the version spoken).
    case unsupported(version: Int)

    /// One sentence.
    public var description: String {
        switch self {
        case .cannotStart(let reason): "the adapter could not be started: \(reason)"
        case .exited(let status):
            "the adapter exited before answering\(status.map { " (exit status \($0))" } ?? "")"
        case .crashed(let signal): "the adapter crashed (\(SignalTrap.name(signal))) before answering"
        case .timedOut(let seconds): "the adapter did not answer within \(ContractReport.seconds(seconds)) s"
        case .malformedAnswer(let reason): "malformed answer: \(reason)"
        case .wrongId(let expected, let actual): "the adapter answered id \(actual) to question \(expected)"
        case .gaveUp(let restarts): "the adapter was restarted \(restarts) times; no more questions are sent to it"
        case .unsupported(let version) where version == 1:
            "the adapter answered \"unsupported\" to a version 1 question, which every adapter speaks"
        case .unsupported(let version):
            "the adapter answered \"unsupported\" to a version \(version) question after it had answered version \(version) "
                + "questions: the answer to the first one declares the version spoken, once"
        }
    }
}
