import Foundation
import PetSpotJSON
import PetSpotModel

/// How hostile generated input is.
public enum InputMood: String, Sendable, CaseIterable, Hashable {
    /// Every field valid by construction: the report must submit.
    case valid
    /// Each field drawn from realistic and hostile spellings (non-ASCII digits, invisible
    /// spaces, emoji, right-to-left text, values at and past every cap and bound): the report
    /// may submit or block, and the model must agree with the backend either way.
    case hostile
}

/// One generated report: the flow, the user's raw inputs, and when and where they submit.
/// It is exactly a question of the adapter protocol.
public struct FlowCase: Sendable, Hashable, CustomStringConvertible {
    /// The wizard the report is made in.
    public var flow: ReportFlowKind
    /// What the user typed and picked.
    public var inputs: ReportInputs
    /// The user's zone and the instant of submission.
    public var context: ReportContext

    /// A case.
    public init(flow: ReportFlowKind, inputs: ReportInputs, context: ReportContext) {
        self.flow = flow
        self.inputs = inputs
        self.context = context
    }

    /// The case as an adapter-protocol question body: `{"flow", "context", "inputs"}`.
    public var json: JSONValue {
        ["flow": .string(flow.rawValue), "context": context.json, "inputs": inputs.json]
    }

    /// The compact JSON of ``json``, which is how failures print a case.
    public var description: String { json.serialized() }

    /// What the reference model makes of this case.
    public var referenceOutcome: ReportOutcome {
        ReferenceModel.evaluate(flow: flow, inputs: inputs, context: context)
    }
}
