import Foundation
import PetSpotFlowGenerators
import PetSpotModel

/// A class of input the payload mapping treats apart (report-flows.md, "Payload"), read off the
/// field table. A Try Again must send what the first attempt sent for every class: the
/// submission scenarios plant each one with a retry (``SubmissionScenario/generator(now:)``).
package enum SubmissionInputClass: String, CaseIterable, Sendable, Hashable {
    case missingFlow = "the Missing flow"
    case foundFlow = "the Found flow"
    case paddedText = "text typed with blanks around it (sent trimmed)"
    case blankOptional = "an optional text of blanks (left out)"
    case cappedText = "text typed past its cap (cut at the cap)"
    case paddedNumber = "a number typed with blanks around it or an exponent (sent as the number)"
    case chipDigits = "a microchip number typed with separators (its digits sent)"
    case phoneDigits = "a phone typed with separators (its digits and + sent)"
    case optionalsPresent = "every optional field filled (each sent)"
    case optionalsAbsent = "no optional field filled (none sent)"

    /// The classes the inputs of `flowCase` (as typed, microchip included) show.
    package static func classes(of flowCase: FlowCase) -> Set<SubmissionInputClass> {
        var classes: Set<SubmissionInputClass> = [flowCase.flow == .missing ? .missingFlow : .foundFlow]
        let form = ReportForm(entering: flowCase.inputs, in: flowCase.flow)
        var optionalFields = 0, sentOptionals = 0
        for field in flowCase.flow.fields {
            let spec = field.spec
            if spec.presence == .optional && spec.payloadKey != nil {
                optionalFields += 1
                if spec.payloadValue(form[field]) != nil { sentOptionals += 1 }
            }
            guard spec.payloadKey != nil, let typed = flowCase.inputs[text: field], !typed.isEmpty else { continue }
            let blank = Trimming.isBlank(typed)
            let padded = !blank && Trimming.trim(typed) != typed
            switch spec.kind {
            case .freeText(let limit):
                if blank { classes.insert(.blankOptional) }
                if padded { classes.insert(.paddedText) }
                if let limit, typed.count > limit.maxCharacters { classes.insert(.cappedText) }
            case .email:
                if padded { classes.insert(.paddedText) }
            case .wholeNumber, .coordinate:
                if blank && spec.presence == .optional { classes.insert(.blankOptional) }
                if padded || typed.lowercased().contains("e") { classes.insert(.paddedNumber) }
            case .digits:
                if typed.contains(where: { !("0"..."9").contains($0) }) { classes.insert(.chipDigits) }
            case .phone:
                if PhoneRule().sanitized(typed) != typed { classes.insert(.phoneDigits) }
            case .photo, .date, .choice:
                break
            }
        }
        if optionalFields > 0 && sentOptionals == optionalFields { classes.insert(.optionalsPresent) }
        if sentOptionals == 0 { classes.insert(.optionalsAbsent) }
        return classes
    }
}
