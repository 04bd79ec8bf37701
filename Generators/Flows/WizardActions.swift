import Foundation
import PetSpotPropertyEngine
import PetSpotModel

/// One thing a user (or the network) does to a report wizard.
public enum WizardAction: Sendable, Hashable, CustomStringConvertible {
    /// Types text into a field (replacing what it held).
    case type(ReportField, String)
    /// Picks a value for a picked field (photo, date, species, sex), or clears it with `nil`.
    case pick(ReportField, FieldValue?)
    /// Continue; on the last step it submits.
    case continueTapped
    case back
    case cancel
    /// The network: the next request of a submission gets no answer.
    case networkFailsNext
    /// The backend: the next request of a submission is answered with this 4xx/5xx status.
    case backendFailsNext(status: Int)
    /// The alert's Try Again.
    case tryAgain
    /// The alert's Cancel.
    case dismissAlert
    case closeSummary
    /// Opens the flow again after leaving it.
    case start

    public var description: String {
        switch self {
        case .type(let field, let text): "type(\(field.name), \(String(reflecting: text)))"
        case .pick(let field, let value): "pick(\(field.name), \(value?.description ?? "nil"))"
        case .continueTapped: "continue"
        case .back: "back"
        case .cancel: "cancel"
        case .networkFailsNext: "networkFailsNext"
        case .backendFailsNext(let status): "backendFailsNext(\(status))"
        case .tryAgain: "tryAgain"
        case .dismissAlert: "dismissAlert"
        case .closeSummary: "closeSummary"
        case .start: "start"
        }
    }
}

extension FlowGenerators {
    /// An action on a wizard of `flow` showing `step` (`nil` on the summary or when closed),
    /// with the alert up or not, and `invalidFields` of the step still failing their rule.
    ///
    /// Actions fit the screen most of the time, so sequences get deep into the flow: on a step,
    /// mostly fixing the step's invalid fields with valid values, as a user does after a refused
    /// Continue, or filling any of its fields (valid two times in three), and Continue, with
    /// Back, cancel, typing into fields of other steps, and network or backend failures armed
    /// for the next submission; with the alert up, mostly Try Again and the alert's Cancel; on
    /// the summary or when closed, closing, Back and starting again. Actions that do not fit
    /// the screen are still drawn now and then: the wizard must ignore them.
    public static func wizardAction(
        _ flow: ReportFlowKind, context: ReportContext, step: ReportStep?, alertUp: Bool,
        invalidFields: [ReportField] = []
    ) -> Gen<WizardAction> {
        let failures: Gen<WizardAction> = .frequency(
            (2, .constant(.networkFailsNext)),
            (1, Gen<Int>.element(of: [400, 401, 409, 413, 500, 503]).map { WizardAction.backendFailsNext(status: $0) }))
        if alertUp {
            return .frequency(
                (6, .constant(.tryAgain)), (2, .constant(.dismissAlert)), (2, failures),
                (1, .constant(.continueTapped)), (1, .constant(.back)), (1, .constant(.cancel)))
        }
        guard let step else {
            return .frequency(
                (4, .constant(.start)), (3, .constant(.closeSummary)), (2, .constant(.back)),
                (1, .constant(.cancel)), (1, .constant(.continueTapped)))
        }
        let mood = Gen<InputMood>.frequency((2, .constant(.valid)), (1, .constant(.hostile)))
        let onStep = fieldAction(step.fields, context: context, mood: mood)
        let fixing = invalidFields.isEmpty ? onStep : fieldAction(invalidFields, context: context, mood: .constant(.valid))
        return .frequency(
            (10, fixing),
            (6, onStep),
            (8, .constant(.continueTapped)),
            (2, .constant(.back)),
            (1, .constant(.cancel)),
            (2, failures),
            (1, fieldAction(flow.fields, context: context, mood: mood)))
    }

    /// Typing into or picking one of `fields`, with a value from the field's own generator.
    static func fieldAction(_ fields: [ReportField], context: ReportContext, mood: Gen<InputMood>) -> Gen<WizardAction> {
        let today = context.latestReportDate
        return Gen<ReportField>.element(of: fields).flatMap { field in
            mood.flatMap { mood -> Gen<WizardAction> in
                FieldGenerators.input(field.spec, mood).map { input in
                    let value = input.resolved(today: today)
                    return field.spec.isText ? .type(field, value?.text ?? "") : .pick(field, value)
                }
            }
        }
    }
}
