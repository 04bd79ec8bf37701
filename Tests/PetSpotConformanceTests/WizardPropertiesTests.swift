import Foundation
import PetSpotFlowGenerators
import PetSpotGenerators
import PetSpotModel
import PetSpotPropertyTesting
import Testing

/// Stateful properties of both wizards (issue 7, "Wizard properties"): step order and progress,
/// Continue's verdicts, Back keeping values, leaving clearing the state, failed submissions
/// keeping inputs, Try Again repeating both requests, the summary and the Found flow closing.
@Suite("Wizard properties")
struct WizardPropertiesTests {
    static let context = ReportContext(
        timeZone: TimeZone(identifier: "Europe/Warsaw")!, now: FlowGenerators.referenceInstant)

    @Test("Missing wizard matches its specification over generated action sequences")
    func missingWizard() {
        let property = ReportWizardMachine(flow: .missing, context: Self.context)
            .property(name: "missingWizard", steps: 1...150)
            .requireCoverage("blocked at photo", atLeast: 5)
            .requireCoverage("blocked at description", atLeast: 5)
            .requireCoverage("blocked at contactDetails", atLeast: 1)
            .requireCoverage("summary with password", atLeast: 1)
            .requireCoverage("failed submission kept the inputs", atLeast: 1)
            .requireCoverage("Try Again after a failure", atLeast: 1)
            .requireCoverage("typed non-ASCII digits", atLeast: 1)
            .requireCoverage("typed invisible spaces", atLeast: 1)
            .requireCoverage("typed emoji", atLeast: 1)
            .requireCoverage("typed combining marks", atLeast: 1)
            .requireCoverage("typed right-to-left text", atLeast: 1)
        let result = propertyCheck(property, configuration: PropertyConfiguration(cases: 400))
        if case .passed(let pass) = result { print("\(result.report)\n\(pass.labels)") }
    }

    @Test("Found wizard matches its specification over generated action sequences")
    func foundWizard() {
        let property = ReportWizardMachine(flow: .found, context: Self.context)
            .property(name: "foundWizard", steps: 1...150)
            .requireCoverage("blocked at photo", atLeast: 5)
            .requireCoverage("blocked at petDetails", atLeast: 5)
            .requireCoverage("blocked at contactInfo", atLeast: 1)
            .requireCoverage("found flow closed after submit", atLeast: 1)
            .requireCoverage("failed submission kept the inputs", atLeast: 1)
            .requireCoverage("Try Again after a failure", atLeast: 1)
            .requireCoverage("typed non-ASCII digits", atLeast: 1)
            .requireCoverage("typed invisible spaces", atLeast: 1)
            .requireCoverage("typed emoji", atLeast: 1)
            .requireCoverage("typed combining marks", atLeast: 1)
            .requireCoverage("typed right-to-left text", atLeast: 1)
        let result = propertyCheck(property, configuration: PropertyConfiguration(cases: 400))
        if case .passed(let pass) = result { print("\(result.report)\n\(pass.labels)") }
    }
}
