import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators
import PetSpotReport

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
    static let iOSOnlyKeys = Set(FieldTable.notSentKeys)

    /// The protocol contract: an answer came, well-formed, with the right id.
    public static func protocolFailure(_ exchange: FlowExchange) -> String? {
        if case .failure(let error) = exchange.result { return error.description }
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
    /// value) equal the reference model's. `flow` names the flow an `unavailable` answer lacks.
    public static func referenceMismatch(_ exchange: FlowExchange, reference: AdapterAnswer, flow: ReportFlowKind) -> String? {
        guard case .success(let answer) = exchange.result else { return nil }
        switch (answer, reference) {
        case (.unavailable, .unavailable):
            return nil
        case (.unavailable, _):
            return missingFlow(flow) + "; " + flowRequired
        case (_, .unavailable):
            return "answered \(answer.outcomeName), but the expected answer is unavailable (a build without the \(flowName(flow)) flow)"
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

    /// `the app has no Found flow (it answered unavailable)`: the cause of every `unavailable`
    /// answer to a question of `flow`.
    package static func missingFlow(_ flow: ReportFlowKind) -> String {
        "the app has no \(flowName(flow)) flow (it answered unavailable)"
    }

    /// Why an `unavailable` answer fails: sut-protocol.md requires both flows of a current build.
    static let flowRequired = "both flows are required today (a release recorded from an older build keeps the answer as what that build does)"

    /// `Missing` or `Found`, as the app's screens name the flow.
    static func flowName(_ flow: ReportFlowKind) -> String {
        switch flow {
        case .missing: "Missing"
        case .found: "Found"
        }
    }

    /// Key-by-key differences between two payloads.
    package static func payloadDifferences(_ actual: JSONValue, _ expected: JSONValue) -> String {
        guard let left = actual.objectValue, let right = expected.objectValue else {
            return "\(actual.serialized()) vs \(expected.serialized())"
        }
        var differences: [String] = []
        for key in right.keys where left[key] == nil { differences.append("\"\(key)\" missing (expected \(right[key]?.serialized() ?? ""))") }
        for key in left.keys where right[key] == nil { differences.append("\"\(key)\" not expected (got \(left[key]?.serialized() ?? ""))") }
        for key in left.keys {
            guard let a = left[key], let b = right[key], a != b else { continue }
            if let x = a.stringValue, let y = b.stringValue, x.count > 24 || y.count > 24 || x.unicodeScalars.count != x.count || y.unicodeScalars.count != y.count {
                differences.append("\"\(key)\" \(VisibleText.firstDifference(x, y))")
            } else {
                differences.append("\"\(key)\" is \(VisibleText.escaped(a.serialized())), expected \(VisibleText.escaped(b.serialized()))")
            }
        }
        return differences.joined(separator: "; ")
    }
}

extension FlowAnswerChecks {
    /// Kinds of difference, as causes name them.
    package enum Kind {
        /// The adapter refuses a value the reference model accepts.
        package static let refused = "refuses a value the rules accept"
        /// The adapter accepts a value the reference model refuses.
        package static let accepted = "accepts a value the rules refuse"
        /// A payload member with another value.
        package static let valueDiffers = "sends another value"
        /// A payload member the reference model sends and the adapter does not.
        package static let leftOut = "leaves out a value the rules send"
        /// A payload member the adapter sends and the reference model does not.
        package static let sentExtra = "sends a value the rules leave out"
    }

    /// Every cause of failure of one answered case, each with the sentence that explains it;
    /// empty when the case passes every contract. `reference` is `nil` when the answers are the
    /// reference model's own (no comparison with itself).
    package static func causes(
        _ exchange: FlowExchange, flowCase: FlowCase, validators: [PayloadValidator], reference: AdapterAnswer?
    ) -> [(cause: FailureCause, message: String)] {
        var found: [(FailureCause, String)] = []
        if case .failure(let error) = exchange.result {
            guard reference != nil else { return [] }
            return [(FailureCause(contract: protocolContract, fields: [], kind: error.kind), error.description)]
        }
        if case .success(.submitted(let payload)) = exchange.result {
            var schemaMessages: [String] = []
            var schemaKeys: Set<String> = []
            for validator in validators {
                let violations = validator.violations(payload)
                guard !violations.isEmpty else { continue }
                schemaMessages.append("payload does not match \(validator.name): " + violations.prefix(5).joined(separator: "; "))
                schemaKeys.formUnion(violations.compactMap(violationKey))
            }
            if !schemaMessages.isEmpty {
                let message = schemaMessages.joined(separator: "; ")
                for key in (schemaKeys.isEmpty ? [""] : schemaKeys.sorted()) {
                    found.append((FailureCause(contract: schemaContract, fields: key.isEmpty ? [] : [fieldName(key)], kind: "does not match the captured schemas"), message))
                }
            }
            if let message = statusFailure(exchange, flow: flowCase.flow) {
                found.append((FailureCause(contract: statusContract, fields: ["status"], kind: "wrong status"), message))
            }
            if let object = payload.objectValue, let message = nothingExtraFailure(exchange) {
                let allowed = Set(FieldTable.payloadKeys)
                for member in object.members {
                    var kinds: [String] = []
                    if iOSOnlyKeys.contains(member.key) { kinds.append("iOS-only field sent") } else if !allowed.contains(member.key) { kinds.append("unknown key sent") }
                    switch member.value {
                    case .null: kinds.append("null sent")
                    case .string(let text) where Trimming.trim(text).isEmpty: kinds.append(text.isEmpty ? "empty string sent" : "blank string sent")
                    default: break
                    }
                    for kind in kinds { found.append((FailureCause(contract: nothingExtraContract, fields: [fieldName(member.key)], kind: kind), message)) }
                }
            }
        }
        if let reference, let message = referenceMismatch(exchange, reference: reference, flow: flowCase.flow), case .success(let answer) = exchange.result {
            // The cause of an unavailable answer already says what the app lacks.
            let explained = answer == .unavailable ? flowRequired : message
            for (fields, kind) in referenceDifferences(answer, reference, flow: flowCase.flow) {
                found.append((FailureCause(contract: sameAsReferenceContract, fields: fields, kind: kind), explained))
            }
        }
        // A date failure names the latest date the rule allowed at the case's clock.
        return found.map { cause, message in
            cause.fields.contains(ReportField.lastSeenDate.name) ? (cause, message + " (" + latestAllowedDateNote(flowCase.context) + ")") : (cause, message)
        }
    }

    /// The latest date a report may carry at `context`'s clock, as the rule computes it: `the
    /// latest allowed date is 2026-11-21, the earlier of the user's today (2026-11-22 in
    /// Pacific/Kiritimati) and today in UTC (2026-11-21)`.
    package static func latestAllowedDateNote(_ context: ReportContext) -> String {
        let latest = ReportDateRule.latestAllowedDate(now: context.now, timeZone: context.timeZone)
        let local = CalendarDate.today(in: context.timeZone, now: context.now)
        let utc = CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: context.now)
        return "the latest allowed date is \(latest), the earlier of the user's today (\(local) in \(context.timeZone.identifier)) "
            + "and today in UTC (\(utc))"
    }

    /// The field a payload key carries (`microchipNumber` is `chipNumber`), else the key.
    package static func fieldName(_ key: String) -> String {
        FieldTable.specs.first { $0.payloadKey == key }?.field.name ?? key
    }

    /// The payload key a schema violation points at (`/phone: ...`), or a key it quotes.
    static func violationKey(_ violation: String) -> String? {
        if violation.hasPrefix("/") {
            let key = violation.dropFirst().prefix { $0 != "/" && $0 != ":" }
            if !key.isEmpty { return String(key) }
        }
        if let range = violation.range(of: "property \"") {
            let key = violation[range.upperBound...].prefix { $0 != "\"" }
            if !key.isEmpty { return String(key) }
        }
        return FieldTable.payloadKeys.first { violation.contains("\"\($0)\"") || violation.hasPrefix("\($0) ") || violation.hasPrefix("\($0):") }
    }

    /// The per-field differences between an answer and the reference model's, as (fields, kind).
    static func referenceDifferences(_ answer: AdapterAnswer, _ reference: AdapterAnswer, flow: ReportFlowKind) -> [([String], String)] {
        func position(_ step: String) -> Int? { flow.steps.firstIndex { $0.name == step } }
        switch (answer, reference) {
        case (.unavailable, .unavailable):
            return []
        case (.unavailable, _):
            // One cause for the whole flow, whatever the case: not one failure per case.
            return [([], missingFlow(flow))]
        case (_, .unavailable):
            return [([], "has a \(flowName(flow)) flow the expected answer lacks")]
        case (.submitted(let actual), .submitted(let expected)):
            guard let left = actual.objectValue, let right = expected.objectValue else { return [([], Kind.valueDiffers)] }
            var differences: [([String], String)] = []
            for key in right.keys where left[key] == nil { differences.append(([fieldName(key)], Kind.leftOut)) }
            for key in left.keys {
                guard let value = left[key] else { continue }
                if let wanted = right[key] {
                    if value != wanted { differences.append(([fieldName(key)], Kind.valueDiffers)) }
                } else {
                    differences.append(([fieldName(key)], Kind.sentExtra))
                }
            }
            return differences
        case (.blocked(let step, let fields), .blocked(let expectedStep, let expectedFields)):
            guard let mine = position(step) else { return [([], "blocks at an unknown step \"\(step)\"")] }
            let theirs = position(expectedStep) ?? mine
            if mine < theirs { return fields.map { ([$0], Kind.refused) } }
            if theirs < mine { return expectedFields.map { ([$0], Kind.accepted) } }
            var differences = Set(fields).subtracting(expectedFields).sorted().map { ([$0], Kind.refused) }
            differences += Set(expectedFields).subtracting(fields).sorted().map { ([$0], Kind.accepted) }
            if differences.isEmpty && fields.count != Set(fields).count { differences.append((fields, "lists a field twice")) }
            return differences
        case (.submitted, .blocked(_, let expectedFields)):
            return expectedFields.map { ([$0], Kind.accepted) }
        case (.blocked(_, let fields), .submitted):
            return fields.map { ([$0], Kind.refused) }
        }
    }
}

extension AdapterProtocolError {
    /// The kind of protocol failure, as causes name it.
    package var kind: String {
        switch self {
        case .cannotStart: "could not be started"
        case .exited: "exited before answering"
        case .crashed: "crashed before answering"
        case .timedOut: "did not answer in time"
        case .malformedAnswer: "answered a malformed line"
        case .wrongId: "answered another question's id"
        case .gaveUp: "was given up after restarts"
        case .unsupported: "answered unsupported to a version it speaks"
        }
    }
}
