import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

/// An adapter's answer to one question, decoded strictly per sut-protocol.md.
public enum AdapterAnswer: Sendable, Hashable {
    /// The report would be submitted with this exact body.
    case submitted(payload: JSONValue)
    /// Continue is refused at `step`, with these fields shown invalid (raw names as sent).
    case blocked(step: String, fields: [String])
    /// The build has no such flow at all (an older release): a valid answer, which fails `check`
    /// because both flows are required today.
    case unavailable

    /// Decodes an answer line to the question `expectedId`.
    ///
    /// - Throws: ``AdapterProtocolError`` naming what is wrong (not JSON, wrong version, wrong
    ///   id, unknown outcome, missing or mistyped member); ``AdapterProtocolError/unsupported(version:)``
    ///   for `unsupported`, which no version 1 question may get.
    public init(line: String, expectedId: Int) throws(AdapterProtocolError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw .malformedAnswer("answer is not JSON (\(error)): \(Self.excerpt(line))")
        }
        guard case .object(let object) = value else { throw .malformedAnswer("answer is not a JSON object: \(Self.excerpt(line))") }
        let allowed: Set<String> = ["v", "id", "outcome", "payload", "step", "fields"]
        if let extra = object.keys.first(where: { !allowed.contains($0) }) {
            throw .malformedAnswer("answer has an unknown key \"\(extra)\"")
        }
        guard object["v"] == .number(JSONNumber(1)) else {
            throw .malformedAnswer("answer's \"v\" is \(object["v"]?.serialized() ?? "missing"), expected 1")
        }
        guard let id = object["id"]?.numberValue?.intValue else { throw .malformedAnswer("answer has no integer \"id\"") }
        guard id == expectedId else { throw .wrongId(expected: expectedId, actual: id) }
        switch object["outcome"]?.stringValue {
        case "submitted":
            guard let payload = object["payload"], payload.objectValue != nil else {
                throw .malformedAnswer("a submitted answer needs a \"payload\" object")
            }
            guard object["step"] == nil, object["fields"] == nil else {
                throw .malformedAnswer("a submitted answer has no \"step\" or \"fields\"")
            }
            self = .submitted(payload: payload)
        case "blocked":
            guard let step = object["step"]?.stringValue else { throw .malformedAnswer("a blocked answer needs a \"step\" string") }
            guard let fields = object["fields"]?.arrayValue else { throw .malformedAnswer("a blocked answer needs a \"fields\" array") }
            var names: [String] = []
            for field in fields {
                guard let name = field.stringValue else { throw .malformedAnswer("\"fields\" holds a non-string \(field.serialized())") }
                names.append(name)
            }
            guard object["payload"] == nil else { throw .malformedAnswer("a blocked answer has no \"payload\"") }
            self = .blocked(step: step, fields: names)
        case "unavailable":
            guard object.count == 3 else { throw .malformedAnswer("an unavailable answer has no other key than \"v\", \"id\" and \"outcome\"") }
            self = .unavailable
        case "unsupported":
            throw .unsupported(version: 1)
        case let other:
            throw .malformedAnswer(
                "answer's \"outcome\" is \(other.map { "\"\($0)\"" } ?? "missing"), expected \"submitted\", \"blocked\" or \"unavailable\"")
        }
    }

    /// Whether `line` is the declaration of an adapter that speaks only version 1, to a question
    /// of a later version with id `expectedId`: exactly `{"v": 1, "id": ID, "outcome": "unsupported"}`
    /// (sut-protocol.md: a version is declared, never read from a failure).
    public static func declaresVersionOneOnly(_ line: String, expectedId: Int) -> Bool {
        guard case .object(let object)? = try? JSONValue.parse(line), object.count == 3 else { return false }
        return object["v"] == .number(JSONNumber(1)) && object["id"]?.numberValue?.intValue == expectedId
            && object["outcome"] == .string("unsupported")
    }

    /// The answer the reference model gives.
    public init(_ outcome: ReportOutcome) {
        switch outcome {
        case .submitted(let payload): self = .submitted(payload: .object(payload))
        case .blocked(let step, let fields): self = .blocked(step: step.name, fields: fields.map(\.name))
        }
    }

    /// The answer as an answer line body (with id `id`).
    public func json(id: Int) -> JSONValue {
        switch self {
        case .unavailable:
            .object(JSONObject([("v", 1), ("id", .number(JSONNumber(id))), ("outcome", "unavailable")]))
        case .submitted(let payload):
            .object(JSONObject([("v", 1), ("id", .number(JSONNumber(id))), ("outcome", "submitted"), ("payload", payload)]))
        case .blocked(let step, let fields):
            .object(JSONObject([
                ("v", 1), ("id", .number(JSONNumber(id))), ("outcome", "blocked"), ("step", .string(step)),
                ("fields", .array(fields.map { .string($0) })),
            ]))
        }
    }

    /// The answer's `outcome`: `submitted`, `blocked` or `unavailable`.
    public var outcomeName: String {
        switch self {
        case .submitted: "submitted"
        case .blocked: "blocked"
        case .unavailable: "unavailable"
        }
    }

    /// `line` cut after 200 characters, for error messages.
    package static func excerpt(_ line: String) -> String {
        line.count > 200 ? String(line.prefix(200)) + "..." : line
    }
}
