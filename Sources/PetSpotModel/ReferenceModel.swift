import Foundation
import PetSpotJSON

/// How a report ends when its inputs are entered and Continue is tapped on every step.
public enum ReportOutcome: Sendable, Hashable {
    /// Every step passed: this exact body would be POSTed.
    case submitted(payload: JSONObject)
    /// The first step whose Continue is refused, and every field shown invalid there.
    case blocked(step: ReportStep, fields: [ReportField])
}

/// The reference model: the rules of report-flows.md run end to end on raw inputs.
///
/// This is what a real app's flow code is compared against through the adapter protocol, and
/// what the contract runner feeds the mock backend with.
public enum ReferenceModel {
    /// Enters `inputs` into a fresh wizard of `flow` step by step (each step's fields, typed as
    /// the screen filters them) and taps Continue on each, as a user would.
    ///
    /// Computed directly on the form the screens would hold: the first step with invalid fields
    /// blocks, otherwise the payload is built. ``evaluateThroughWizard(flow:inputs:context:)``
    /// walks a real ``ReportWizard`` instead; the conformance tests check that the two always
    /// agree, and this one is several times faster (it runs for every generated case).
    public static func evaluate(flow: ReportFlowKind, inputs: ReportInputs, context: ReportContext) -> ReportOutcome {
        let form = ReportForm(entering: inputs, in: flow)
        for step in flow.steps {
            let invalid = form.invalidFields(on: step, context: context)
            if !invalid.isEmpty { return .blocked(step: step, fields: invalid) }
        }
        do {
            return .submitted(payload: try CreateAnnouncementRequest(validatedFlow: flow, form: form).jsonObject)
        } catch {
            return .blocked(step: error.step, fields: error.fields)
        }
    }

    /// The same as ``evaluate(flow:inputs:context:)``, by typing into a ``ReportWizard`` and
    /// tapping Continue on each step.
    public static func evaluateThroughWizard(flow: ReportFlowKind, inputs: ReportInputs, context: ReportContext) -> ReportOutcome {
        var wizard = ReportWizard(flow: flow)
        for step in flow.steps {
            for field in step.fields { enter(field, from: inputs, into: &wizard) }
            switch wizard.continueTapped(context: context) {
            case .advanced:
                continue
            case .blocked(let fields):
                return .blocked(step: wizard.currentStep ?? step, fields: fields)
            case .submitting(let payload):
                return .submitted(payload: payload.jsonObject)
            case .ignored:
                return .blocked(step: step, fields: [])
            }
        }
        return .blocked(step: flow.steps[flow.steps.count - 1], fields: [])
    }

    private static func enter(_ field: ReportField, from inputs: ReportInputs, into wizard: inout ReportWizard) {
        guard let value = inputs[field] else { return }
        if case .text(let typed) = value {
            wizard.type(typed, into: field)
        } else {
            wizard.pick(field) { $0[field] = value }
        }
    }
}

extension ReportContext {
    /// Decodes the adapter protocol's `context`: `{"timeZone": IANA name, "now": ISO-8601}`.
    public init(json: JSONValue) throws(WireDecodingError) {
        let reader = try WireObjectReader(json, path: "context")
        try reader.rejectUnknownKeys(allowed: ["timeZone", "now"])
        let zoneName = try reader.string("timeZone")
        guard let zone = TimeZone(identifier: zoneName) else {
            throw WireDecodingError(keyPath: "context.timeZone", reason: "unknown time zone \"\(zoneName)\"")
        }
        let nowText = try reader.string("now")
        guard let now = Self.parseInstant(nowText) else {
            throw WireDecodingError(keyPath: "context.now", reason: "not an ISO-8601 instant: \"\(nowText)\"")
        }
        self.init(timeZone: zone, now: now)
    }

    /// The `context` object of a question.
    public var json: JSONValue {
        ["timeZone": .string(timeZone.identifier), "now": .string(Self.formatInstant(now))]
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds; fractions are dropped).
    public static func formatInstant(_ instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(CalendarDate(daysSinceUnixEpoch: days).isoString)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
    public static func parseInstant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            let date = CalendarDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let hour = number(11..<13), hour < 24, let minute = number(14..<16), minute < 60,
            let second = number(17..<19), second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count && (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHours = number((index + 1)..<(index + 3)), let offsetMinutes = number((index + 4)..<(index + 6))
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = date.daysSinceUnixEpoch * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
