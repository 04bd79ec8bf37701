import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// What an app answers to a submission question (protocol version 2), decoded strictly.
package enum SubmissionAnswer: Sendable, Hashable, CustomStringConvertible {
    /// Continue is refused at `step` with these fields invalid (as in version 1).
    case blocked(step: String, fields: [String])
    /// The app left the flow on success; the summary shows (or would show) this password.
    case submitted(managementPassword: String)
    /// The app stays on the screen and shows this alert.
    case alert(message: String)
    /// After `cancel`: the alert is gone, the inputs kept.
    case cancelled
    /// The build has no such flow (as in version 1): nothing was sent.
    case unavailable

    /// Decodes an answer line to the question `expectedId`.
    /// - Throws: ``AdapterProtocolError`` naming what is wrong with it.
    package init(line: String, expectedId: Int) throws(AdapterProtocolError) {
        guard case .object(let object)? = try? JSONValue.parse(line) else {
            throw .malformedAnswer("answer is not a JSON object: \(AdapterAnswer.excerpt(line))")
        }
        guard object["v"] == .number(JSONNumber(2)) else {
            throw .malformedAnswer("answer's \"v\" is \(object["v"]?.serialized() ?? "missing"), expected 2 (protocol version 2)")
        }
        guard let id = object["id"]?.numberValue?.intValue else { throw .malformedAnswer("answer has no integer \"id\"") }
        guard id == expectedId else { throw .wrongId(expected: expectedId, actual: id) }
        func only(_ keys: Set<String>) throws(AdapterProtocolError) {
            if let extra = object.keys.first(where: { !keys.union(["v", "id", "outcome"]).contains($0) }) {
                throw .malformedAnswer("a \"\(object["outcome"]?.stringValue ?? "")\" answer has an unknown key \"\(extra)\"")
            }
        }
        switch object["outcome"]?.stringValue {
        case "blocked":
            try only(["step", "fields"])
            guard let step = object["step"]?.stringValue, let fields = object["fields"]?.arrayValue else {
                throw .malformedAnswer("a blocked answer needs a \"step\" string and a \"fields\" array")
            }
            self = .blocked(step: step, fields: fields.compactMap(\.stringValue))
        case "submitted":
            try only(["managementPassword"])
            guard let password = object["managementPassword"]?.stringValue else {
                throw .malformedAnswer("a submitted answer of version 2 needs a \"managementPassword\" string")
            }
            self = .submitted(managementPassword: password)
        case "alert":
            try only(["message"])
            guard let message = object["message"]?.stringValue else { throw .malformedAnswer("an alert answer needs a \"message\" string") }
            self = .alert(message: message)
        case "cancelled":
            try only([])
            self = .cancelled
        case "unavailable":
            try only([])
            self = .unavailable
        case let other:
            throw .malformedAnswer(
                "answer's \"outcome\" is \(other.map { "\"\($0)\"" } ?? "missing"), expected \"blocked\", \"submitted\", \"alert\", "
                    + "\"cancelled\" or \"unavailable\"")
        }
    }

    /// What the user sees: `the app leaves the flow (password shown)`, `the alert "..."`.
    package var description: String {
        switch self {
        case .blocked(let step, let fields): "Continue refused at \(step) (\(fields.joined(separator: ", ")))"
        case .submitted: "the app leaves the flow (the summary shows the password)"
        case .alert(let message): "the alert \"\(message)\""
        case .cancelled: "the alert closes, the screen stays"
        case .unavailable: "the app has no such flow (it answered unavailable)"
        }
    }
}
