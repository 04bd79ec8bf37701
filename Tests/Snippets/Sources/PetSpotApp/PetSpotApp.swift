// PetSpotApp: the app module docs/ADAPTERS.md's adapter imports, for the snippet check.
//
// It offers exactly the names the documented adapter calls (ReportWizard.missing(), found(),
// clock, FixedClock, steps, enter(_:on:), continueTapped(), protocolName,
// createAnnouncementBody()), implemented with the reference model's wizard, so that the
// documented adapter builds and `petspot-contracts check --sut` can run it. An app's real module
// has its own code behind names of its own.
import Foundation
import PetSpotJSON
import PetSpotModel

/// The app's report wizard: one flow's steps, the fields typed into them, Continue.
public struct ReportWizard {
    /// One screen of the wizard.
    public struct Step {
        let step: ReportStep
        /// The step's name in the adapter protocol.
        public var protocolName: String { step.name }
    }

    /// One field of a screen.
    public struct Field {
        let field: ReportField
        /// The field's name in the adapter protocol.
        public var protocolName: String { field.name }
    }

    /// What Continue did.
    public enum ContinueResult {
        /// The next step is shown (or, on the last one, the report is ready to send).
        case advanced
        /// The step stays, with these fields shown invalid.
        case blocked([Field])
    }

    /// Why there is no body to send.
    public struct NotReady: Error {}

    /// The clock the date rules read.
    public var clock = FixedClock(now: Date(), timeZone: TimeZone(identifier: "UTC")!)

    private var wizard: PetSpotModel.ReportWizard
    private var body: Data?

    private init(flow: ReportFlowKind) {
        wizard = PetSpotModel.ReportWizard(flow: flow)
    }

    /// A fresh Missing report.
    public static func missing() -> ReportWizard { ReportWizard(flow: .missing) }

    /// A fresh Found report.
    public static func found() -> ReportWizard { ReportWizard(flow: .found) }

    /// The flow's steps, in order.
    public var steps: [Step] { wizard.flow.steps.map(Step.init) }

    /// Enters `inputs` (any value whose stored properties are named after the protocol's
    /// input keys, such as the adapter's `Question.Inputs`) into the fields of `step`, as the
    /// screen's setters do: text through the field's input filter and cap, picks as picked.
    public mutating func enter(_ inputs: Any, on step: Step) {
        let values = Self.inputs(from: inputs)
        for field in step.step.fields {
            guard let value = values[field] else { continue }
            if case .text(let typed) = value {
                _ = wizard.type(typed, into: field)
            } else {
                _ = wizard.pick(field) { $0[field] = value }
            }
        }
    }

    /// Taps Continue on the current step.
    public mutating func continueTapped() -> ContinueResult {
        let context = ReportContext(timeZone: clock.timeZone, now: clock.now)
        switch wizard.continueTapped(context: context) {
        case .blocked(let fields):
            return .blocked(fields.map(Field.init))
        case .submitting(let payload):
            body = JSONValue.object(payload.jsonObject).serializedData()
            return .advanced
        case .advanced, .ignored:
            return .advanced
        }
    }

    /// The exact JSON body the app's API client would POST, once every step passed.
    public func createAnnouncementBody() throws -> Data {
        guard let body else { throw NotReady() }
        return body
    }

    /// The protocol's inputs read from `value`'s stored properties by name.
    private static func inputs(from value: Any) -> ReportInputs {
        var object = JSONObject()
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, let json = json(child.value) else { continue }
            object[label] = json
        }
        return (try? ReportInputs(json: .object(object))) ?? ReportInputs()
    }

    private static func json(_ value: Any) -> JSONValue? {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.flatMap { json($0.value) }
        }
        switch value {
        case let text as String: return .string(text)
        case let number as Int: return .number(JSONNumber(number))
        default:
            var object = JSONObject()
            for child in mirror.children {
                guard let label = child.label, let member = json(child.value) else { continue }
                object[label] = member
            }
            return .object(object)
        }
    }
}

/// A clock fixed at an instant in a time zone.
public struct FixedClock {
    /// The current instant.
    public var now: Date
    /// The user's time zone.
    public var timeZone: TimeZone

    /// A clock at `now` in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }
}
