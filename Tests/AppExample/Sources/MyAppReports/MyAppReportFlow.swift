// Sources/MyAppReports/MyAppReportFlow.swift: stands in for the app's own report code.
import Foundation
import PetSpotJSON
import PetSpotModel

/// The app's report flow as the contract test drives it: what the user typed and picked goes in,
/// and out comes the step that refused Continue with its invalid fields, or the JSON body the app
/// would POST. A real app calls its own flow state and payload mapper here; this stand-in walks
/// the reference model's `ReportWizard`, and lists invalid fields in its own order.
public enum MyAppReportFlow {
    /// What the app did with a report.
    public enum Result {
        /// Continue was refused on the step named `step`, with these fields shown invalid.
        case blocked(step: String, fields: [String])
        /// Every step passed: this body would be POSTed.
        case submitted(body: Data)
    }

    /// The example's planted bug, on with `APP_EXAMPLE_PLANTED_BUG=1`: Found reports are sent
    /// with `"status": "found"` instead of `"FOUND"`.
    public static let plantedBug = ProcessInfo.processInfo.environment["APP_EXAMPLE_PLANTED_BUG"] == "1"

    /// Enters `inputs` step by step and taps Continue on each, at `now` in `timeZone`.
    public static func run(flow: ReportFlowKind, inputs: ReportInputs, now: Date, timeZone: TimeZone) -> Result {
        let context = ReportContext(timeZone: timeZone, now: now)
        var wizard = ReportWizard(flow: flow)
        for step in flow.steps {
            for field in step.fields {
                switch inputs[field] {
                case .text(let typed)?: _ = wizard.type(typed, into: field)
                case let picked?: _ = wizard.pick(field) { $0[field] = picked }
                case nil: break
                }
            }
            switch wizard.continueTapped(context: context) {
            case .blocked(let fields):
                return .blocked(step: step.name, fields: fields.reversed().map(\.name))
            case .submitting(let payload):
                var body = payload.jsonObject
                if plantedBug && flow == .found { body["status"] = "found" }
                return .submitted(body: JSONValue.object(body).serializedData())
            case .advanced, .ignored:
                continue
            }
        }
        return .blocked(step: flow.steps[flow.steps.count - 1].name, fields: [])
    }
}
