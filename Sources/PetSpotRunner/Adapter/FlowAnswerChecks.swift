import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators

/// Something that answers flow cases: the reference model in-process, or an adapter program.
public protocol FlowOracle: Sendable {
    /// What the oracle is, for reports: `reference model` or `adapter: CMD`.
    var name: String { get }
    /// The answer to `flowCase`, or the protocol failure that prevented one.
    func answer(_ flowCase: FlowCase) -> FlowExchange
}

/// One question asked and what came back.
public struct FlowExchange: Sendable, Hashable {
    /// The question line as sent (or as it would be sent, for the reference model).
    public var question: String
    /// The id the question carried.
    public var id: Int
    /// The decoded answer, or why there is none.
    public var result: Result<AdapterAnswer, AdapterProtocolError>
    /// The raw answer line (`nil` when nothing came).
    public var answerLine: String?

    /// Creates an exchange.
    public init(question: String, id: Int, result: Result<AdapterAnswer, AdapterProtocolError>, answerLine: String?) {
        self.question = question
        self.id = id
        self.result = result
        self.answerLine = answerLine
    }
}

/// The reference model as an oracle: answers exactly what ``ReferenceModel/evaluate(flow:inputs:context:)`` says.
public struct ReferenceOracle: FlowOracle {
    /// Creates the oracle.
    public init() {}

    /// `reference model`.
    public var name: String { "reference model" }

    /// The reference model's answer.
    public func answer(_ flowCase: FlowCase) -> FlowExchange {
        let answer = AdapterAnswer(ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context))
        return FlowExchange(
            question: flowCase.question(id: 0).serialized(), id: 0, result: .success(answer),
            answerLine: answer.json(id: 0).serialized())
    }
}

/// Validates a submitted payload against a schema; returns one message per violation.
public struct PayloadValidator: Sendable {
    /// What it validates against, e.g. `create-request.schema.json`.
    public let name: String
    /// Returns the violations of `payload` (empty when it is valid).
    public let violations: @Sendable (JSONValue) -> [String]

    /// Creates a validator.
    public init(name: String, violations: @escaping @Sendable (JSONValue) -> [String]) {
        self.name = name
        self.violations = violations
    }

    /// The model's strict decoder of the create request: unknown keys, `null`, wrong types and
    /// unknown statuses are refused (used when no schema validator is available).
    public static let modelDecoder = PayloadValidator(name: "CreateAnnouncementRequest(json:)") { payload in
        do {
            _ = try CreateAnnouncementRequest(json: payload)
            return []
        } catch {
            return [String(describing: error)]
        }
    }
}

/// The checks sut-protocol.md runs on every answer, one function per contract.
///
/// Each returns `nil` when the answer satisfies the contract, or a one-sentence reason.
public enum FlowAnswerChecks {
    /// The flow answers' contract names, in report order.
    public static let protocolContract = "answers follow the adapter protocol"
    /// See ``protocolContract``.
    public static let schemaContract = "submitted payload matches the create-request and client-payload schemas"
    /// See ``protocolContract``.
    public static let statusContract = "status by flow (MISSING for missing, FOUND for found)"
    /// See ``protocolContract``.
    public static let nothingExtraContract = "nothing extra (no unknown or iOS-only key, no null, no empty string)"
    /// See ``protocolContract``.
    public static let sameAsReferenceContract = "same outcome, step, fields and payload as the reference model"

    /// Fields the app keeps in its flow state but never sends.
    public static let iOSOnlyKeys = Set(FieldTable.notSentKeys)

    /// The protocol contract: an answer came, well-formed, with the right id.
    public static func protocolFailure(_ exchange: FlowExchange) -> String? {
        if case .failure(let error) = exchange.result { return error.description }
        return nil
    }

    /// The schema contract: a submitted payload validates against every validator given.
    public static func schemaFailure(_ exchange: FlowExchange, validators: [PayloadValidator]) -> String? {
        guard case .success(.submitted(let payload)) = exchange.result else { return nil }
        for validator in validators {
            let violations = validator.violations(payload)
            if !violations.isEmpty {
                return "payload does not match \(validator.name): " + violations.prefix(5).joined(separator: "; ")
            }
        }
        return nil
    }

    /// The status contract: `MISSING` for the missing flow, `FOUND` for the found flow.
    public static func statusFailure(_ exchange: FlowExchange, flow: ReportFlowKind) -> String? {
        guard case .success(.submitted(let payload)) = exchange.result else { return nil }
        let expected = flow.status.wireValue
        guard let status = payload.objectValue?["status"] else { return "payload has no status; expected \"\(expected)\"" }
        guard status == .string(expected) else {
            return "payload status is \(status.serialized()) for the \(flow.rawValue) flow; expected \"\(expected)\""
        }
        return nil
    }

    /// The nothing-extra contract: only payload keys, no iOS-only key, no `null`, no empty or
    /// blank string.
    public static func nothingExtraFailure(_ exchange: FlowExchange) -> String? {
        guard case .success(.submitted(let payload)) = exchange.result else { return nil }
        guard let object = payload.objectValue else { return "payload is not an object" }
        let allowed = Set(FieldTable.payloadKeys)
        var problems: [String] = []
        for member in object.members {
            if iOSOnlyKeys.contains(member.key) {
                problems.append("iOS-only field \"\(member.key)\" is sent")
            } else if !allowed.contains(member.key) {
                problems.append("unknown key \"\(member.key)\"")
            }
            switch member.value {
            case .null: problems.append("\"\(member.key)\" is null")
            case .string(let text) where Trimming.trim(text).isEmpty:
                problems.append("\"\(member.key)\" is \(text.isEmpty ? "an empty" : "a blank") string")
            default: break
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The same-as-reference contract: outcome, step, fields (as sets) and payload (value for
    /// value) equal the reference model's.
    public static func referenceMismatch(_ exchange: FlowExchange, reference: AdapterAnswer) -> String? {
        guard case .success(let answer) = exchange.result else { return nil }
        switch (answer, reference) {
        case (.submitted(let actual), .submitted(let expected)):
            guard actual != expected else { return nil }
            return "payload differs from the reference model's: " + payloadDifferences(actual, expected)
        case (.blocked(let step, let fields), .blocked(let expectedStep, let expectedFields)):
            if step != expectedStep { return "blocked at step \"\(step)\"; the reference model blocks at \"\(expectedStep)\"" }
            if Set(fields) != Set(expectedFields) {
                return "blocked fields \(fields.sorted()) differ from the reference model's \(expectedFields.sorted())"
            }
            if fields.count != Set(fields).count { return "blocked fields \(fields) list a field twice" }
            return nil
        case (.submitted, .blocked(let step, let fields)):
            return "submitted, but the reference model blocks at step \"\(step)\" on \(fields.sorted())"
        case (.blocked(let step, let fields), .submitted):
            return "blocked at step \"\(step)\" on \(fields.sorted()), but the reference model submits"
        }
    }

    /// Key-by-key differences between two payloads.
    static func payloadDifferences(_ actual: JSONValue, _ expected: JSONValue) -> String {
        guard let left = actual.objectValue, let right = expected.objectValue else {
            return "\(actual.serialized()) vs \(expected.serialized())"
        }
        var differences: [String] = []
        for key in right.keys where left[key] == nil { differences.append("\"\(key)\" missing (expected \(right[key]?.serialized() ?? ""))") }
        for key in left.keys where right[key] == nil { differences.append("\"\(key)\" not expected (got \(left[key]?.serialized() ?? ""))") }
        for key in left.keys {
            if let a = left[key], let b = right[key], a != b { differences.append("\"\(key)\" is \(a.serialized()), expected \(b.serialized())") }
        }
        return differences.joined(separator: "; ")
    }
}
