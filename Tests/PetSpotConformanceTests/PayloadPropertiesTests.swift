import Foundation
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotModel
import PetSpotPropertyTesting
import Testing

/// Generated reports of both flows, valid and hostile, with the reference model's outcome.
let submittedCases: Gen<(FlowCase, JSONObject)> = Gen<FlowCase>
    .frequency((1, FlowGenerators.flowCase(.valid)), (2, FlowGenerators.flowCase(.hostile)))
    .map { ($0, $0.referenceOutcome) }
    .filter("submitted reports", maxAttempts: 50) { _, outcome in
        if case .submitted = outcome { return true }
        return false
    }
    .map { flowCase, outcome in
        guard case .submitted(let payload) = outcome else { return (flowCase, JSONObject()) }
        return (flowCase, payload)
    }

/// Trimming as report-flows.md defines it, written out here independently of the model.
func specTrim(_ text: String) -> String {
    let isTrimmed: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
    let scalars = Array(text.unicodeScalars)
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
        return ""
    }
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[first...last])
    return String(view)
}

/// Payload properties: status by flow, nothing extra, and
/// field fidelity, over hundreds of generated flows of each kind.
@Suite("Payload properties")
struct PayloadPropertiesTests {
    @Test("status is MISSING for every Missing submission and FOUND for every Found one")
    func statusByFlow() {
        propertyCheck(
            submittedCases, configuration: PropertyConfiguration(cases: 400),
            coverage: [CoverageRequirement("missing", atLeast: 30), CoverageRequirement("found", atLeast: 30)],
            verifying: { flowCase, payload in
            label(flowCase.flow.rawValue)
            let expected = flowCase.flow == .missing ? "MISSING" : "FOUND"
            try require(payload["status"] == .string(expected), "status \(String(describing: payload["status"])), expected \(expected)")
        })
    }

    @Test("no key outside the contract, no null, no empty or blank string, no iOS-only field")
    func nothingExtra() {
        let allowed = Set(FieldTable.payloadKeys)
        propertyCheck(
            submittedCases, configuration: PropertyConfiguration(cases: 400),
            coverage: [CoverageRequirement("caregiver phone typed", atLeast: 10), CoverageRequirement("address typed", atLeast: 10)],
            verifying: { flowCase, payload in
            classify(!(flowCase.inputs[text: .caregiverPhone] ?? "").isEmpty, "caregiver phone typed")
            classify(!(flowCase.inputs[text: .currentAddress] ?? "").isEmpty, "address typed")
            for (key, value) in payload {
                try require(allowed.contains(key), "unexpected key \(key)")
                try require(!value.isNull, "\(key) is null")
                if let text = value.stringValue { try require(!specTrim(text).isEmpty, "\(key) is empty or blank: \(String(reflecting: text))") }
            }
            if flowCase.flow == .found {
                for key in ["petName", "age", "reward"] { try require(payload[key] == nil, "a Found payload carries \(key)") }
            }
        })
    }

    /// Whether `character` is exactly one of `kept`'s scalars, with nothing attached to it.
    static func isLone(_ character: Character, among kept: String) -> Bool {
        character.unicodeScalars.count == 1 && kept.unicodeScalars.contains(character.unicodeScalars.first!)
    }

    @Test("every field carries exactly what was typed, filtered and trimmed as specified")
    func fieldFidelity() {
        let result = propertyCheck(
            submittedCases, configuration: PropertyConfiguration(cases: 800),
            coverage: [
                CoverageRequirement("chip typed with separators or extra digits", atLeast: 5),
                CoverageRequirement("padded email", atLeast: 3),
                CoverageRequirement("description capped", atLeast: 0.5),
            ],
            verifying: { flowCase, payload in
            let inputs = flowCase.inputs
            // Microchip: the typed characters that are ASCII digits as a whole (a digit carrying a
            // combining mark is dropped whole), the first 15; absent when none.
            let typedChip = inputs[text: .chipNumber] ?? ""
            let chipDigits = String(typedChip.filter { Self.isLone($0, among: "0123456789") }.prefix(15))
            classify(typedChip != chipDigits && !chipDigits.isEmpty, "chip typed with separators or extra digits")
            try require(payload["microchipNumber"]?.stringValue == (chipDigits.isEmpty ? nil : chipDigits),
                        "microchip \(String(describing: payload["microchipNumber"])) from typed \(String(reflecting: typedChip))")
            // Phone: the typed characters 0-9 and '+', each as a whole character.
            let phone = String((inputs[text: .phone] ?? "").filter { Self.isLone($0, among: "0123456789+") })
            try require(payload["phone"]?.stringValue == phone, "phone \(String(describing: payload["phone"])), expected \(phone)")
            // Email: trimmed.
            let email = specTrim(inputs[text: .email] ?? "")
            classify(email != inputs[text: .email], "padded email")
            try require(payload["email"]?.stringValue == email, "email \(String(describing: payload["email"])), expected \(email)")
            // Coordinates: the typed numbers.
            for (key, typed) in [("locationLatitude", inputs[text: .latitude]), ("locationLongitude", inputs[text: .longitude])] {
                let expected = Double(specTrim(typed ?? ""))
                try require(payload[key]?.numberValue?.doubleValue == expected, "\(key) \(String(describing: payload[key])) from typed \(String(reflecting: typed))")
            }
            // Date: the picked calendar date, whatever the zone and time of day.
            try require(payload["lastSeenDate"]?.stringValue == inputs.lastSeenDate?.isoString, "lastSeenDate \(String(describing: payload["lastSeenDate"]))")
            // Optional texts: trimmed, capped, omitted when blank.
            var texts: [(String, String?, Int?)] = [("breed", inputs[text: .breed], nil), ("description", inputs[text: .description], 500)]
            if flowCase.flow == .missing { texts += [("petName", inputs[text: .petName], nil), ("reward", inputs[text: .reward], 120)] }
            for (key, typed, cap) in texts {
                let shown = cap.map { String((typed ?? "").prefix($0)) } ?? (typed ?? "")
                classify(cap != nil && shown != (typed ?? "") && key == "description", "description capped")
                let expected = specTrim(shown)
                try require(payload[key]?.stringValue == (expected.isEmpty ? nil : expected),
                            "\(key) \(String(describing: payload[key])), expected \(String(reflecting: expected))")
            }
            if flowCase.flow == .missing {
                let typedAge = specTrim(inputs[text: .age] ?? "")
                try require(payload["age"]?.numberValue?.intValue == Int(typedAge), "age \(String(describing: payload["age"])) from \(typedAge)")
            }
        })
        if case .passed(let pass) = result { print(pass.labels) }
    }

    @Test("valid-by-construction reports are never blocked")
    func validNeverBlocked() {
        propertyCheck(
            FlowGenerators.flowCase(.valid), configuration: PropertyConfiguration(cases: 500),
            coverage: [CoverageRequirement("missing", atLeast: 30), CoverageRequirement("found", atLeast: 30)],
            verifying: { flowCase in
            label(flowCase.flow.rawValue)
            if case .blocked(let step, let fields) = flowCase.referenceOutcome {
                throw RequirementFailure("valid report blocked at \(step.name): \(fields.map(\.name))")
            }
        })
    }
}

/// The reference model's fast evaluation against a walk through the real wizard.
@Suite("Reference model")
struct ReferenceModelAgreementTests {
    @Test("evaluating on the form and walking the wizard give the same outcome, valid and hostile")
    func formAndWizardAgree() {
        let cases = Gen<FlowCase>.frequency((1, FlowGenerators.flowCase(.valid)), (3, FlowGenerators.flowCase(.hostile)))
        propertyCheck(
            cases, configuration: PropertyConfiguration(cases: 500),
            coverage: [CoverageRequirement("submitted", atLeast: 10), CoverageRequirement("blocked", atLeast: 10)],
            verifying: { flowCase in
                let direct = flowCase.referenceOutcome
                if case .submitted = direct { label("submitted") } else { label("blocked") }
                let walked = ReferenceModel.evaluateThroughWizard(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context)
                try require(direct == walked, "on the form: \(direct); through the wizard: \(walked)")
            })
    }
}
