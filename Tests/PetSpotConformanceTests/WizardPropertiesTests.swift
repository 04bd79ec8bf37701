import Foundation
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotModel
import PetSpotPropertyTesting
import Testing

/// Stateful properties of both wizards: step order and progress, Continue's verdicts, Back
/// keeping values, leaving clearing the state, failed submissions keeping inputs, Try Again
/// repeating both requests, the summary and the Found flow closing.
@Suite("Wizard properties")
struct WizardPropertiesTests {
    static let context = ReportContext(
        timeZone: TimeZone(identifier: "Europe/Warsaw")!, now: FlowGenerators.referenceInstant)

    /// Labels each flow's default run must reach: every step blocked, the end of the flow,
    /// failures and retries, and every hostile character class typed.
    static func requiredLabels(_ flow: ReportFlowKind) -> [(label: String, percent: Double)] {
        let blockingSteps = flow.steps.filter { $0 != .chipNumber }
        let ending = flow == .missing ? "summary with password" : "found flow closed after submit"
        return blockingSteps.map { ("blocked at \($0.name)", $0 == flow.steps.last ? 1 : 5) }
            + [(ending, 1), ("failed submission kept the inputs", 1), ("Try Again after a failure", 1)]
            + ["non-ASCII digits", "invisible spaces", "emoji", "combining marks", "right-to-left text"].map { ("typed \($0)", 1) }
    }

    @Test("each wizard matches its specification over generated action sequences", arguments: ReportFlowKind.allCases)
    func wizardMatchesSpecification(flow: ReportFlowKind) {
        var property = ReportWizardMachine(flow: flow, context: Self.context)
            .property(name: "wizardMatchesSpecification", steps: 1...150)
        for (label, percent) in Self.requiredLabels(flow) {
            property = property.requireCoverage(label, atLeast: percent)
        }
        let result = propertyCheck(property, configuration: PropertyConfiguration(cases: 400))
        if case .passed(let pass) = result { print("\(flow.rawValue) wizard: \(result.report)\n\(pass.labels)") }
    }
}
