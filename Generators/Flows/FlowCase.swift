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
    /// The boundary catalogue entries (``Boundary/index``) the generator planted in this case;
    /// not part of the case's identity (two cases with the same inputs are equal).
    public var boundaries: [Int]

    /// A case.
    public init(flow: ReportFlowKind, inputs: ReportInputs, context: ReportContext, boundaries: [Int] = []) {
        self.flow = flow
        self.inputs = inputs
        self.context = context
        self.boundaries = boundaries
    }

    public static func == (lhs: FlowCase, rhs: FlowCase) -> Bool {
        lhs.flow == rhs.flow && lhs.context == rhs.context && lhs.inputs == rhs.inputs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(flow)
        hasher.combine(inputs)
        hasher.combine(context)
    }

    /// The planted catalogue entries whose field's step the reference model reaches (`outcome`
    /// does not block at an earlier step): the boundaries this case has shown to the rules.
    public func reachedBoundaries(outcome: ReportOutcome) -> [Boundary] {
        guard !boundaries.isEmpty else { return [] }
        let steps = flow.steps
        let reached: Int
        switch outcome {
        case .submitted: reached = steps.count - 1
        case .blocked(let step, _): reached = steps.firstIndex(of: step) ?? steps.count - 1
        }
        let catalogue = BoundaryCatalogue.planted
        return boundaries.compactMap { index in
            let boundary = catalogue[index].boundary
            guard let step = boundary.field.spec.placement.step(in: flow), let position = steps.firstIndex(of: step),
                position <= reached
            else { return nil }
            return boundary
        }
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
