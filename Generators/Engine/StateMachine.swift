/// A model-based (stateful) test: a model, a system under test, and the actions that drive both.
///
/// The engine generates sequences of actions: each action is drawn from
/// ``actions(for:)`` given the model state so far (so preconditions hold by construction),
/// then applied to the model. Checking runs the sequence on a fresh system, comparing it
/// with the model at every step (``run(_:on:model:)`` throws on a wrong response) and
/// checking ``checkInvariants(model:system:)`` after every step. Because actions are drawn
/// through the engine, a failing sequence shrinks like any value: actions are removed and
/// simplified, and later actions are re-derived from the shrunk model, so the shrunk
/// sequence is still valid.
///
/// ```swift
/// struct StackMachine: StateMachine {
///     enum Action: Hashable { case push(Int), pop }
///     func initialModel() -> [Int] { [] }
///     func makeSystem() -> BuggyStack { BuggyStack() }
///     func actions(for model: [Int]) -> Gen<Action> {
///         model.isEmpty ? Gen.int(in: 0...9).map(Action.push)
///                       : .oneOf(Gen.int(in: 0...9).map(Action.push), .constant(.pop))
///     }
///     func apply(_ action: Action, to model: inout [Int]) { ... }
///     func run(_ action: Action, on system: inout BuggyStack, model: [Int]) throws { ... }
/// }
/// let result = StackMachine().property(name: "stack").check()
/// ```
public protocol StateMachine: Sendable {
    /// The model's state: the specification of what the system should be.
    associatedtype Model
    /// The system under test.
    associatedtype System
    /// One step applied to both.
    associatedtype Action

    /// The model's state before any action.
    func initialModel() -> Model
    /// Creates a fresh system under test for one sequence.
    /// - Throws: Any error, reported as the failure of the sequence.
    func makeSystem() throws -> System
    /// A generator of the actions allowed in `model` (the preconditions), simplest first.
    func actions(for model: Model) -> Gen<Action>
    /// Advances the model by `action`.
    func apply(_ action: Action, to model: inout Model)
    /// Performs `action` on the system; throws when its response disagrees with `model` (the state before the action).
    func run(_ action: Action, on system: inout System, model: Model) throws
    /// Checks the invariants relating model and system after a step; throws when one is broken.
    func checkInvariants(model: Model, system: System) throws
}

extension StateMachine {
    /// Checks nothing: override to compare the model with the system after every step.
    public func checkInvariants(model: Model, system: System) throws {}

    /// A generator of action sequences with a length in `steps`, each action valid for the model state before it.
    public func actionSequences(steps: ClosedRange<Int> = 1...50) -> Gen<[Action]> {
        let machine = self
        let minimum = Swift.max(0, steps.lowerBound), maximum = Swift.max(minimum, steps.upperBound)
        return Gen { testCase in
            var model = machine.initialModel()
            var actions: [Action] = []
            try drawElements(&testCase, minimum: minimum, maximum: maximum, what: "action sequence") { testCase in
                let action = try machine.actions(for: model).draw(&testCase)
                machine.apply(action, to: &model)
                actions.append(action)
                return true
            }
            return actions
        }
    }

    /// Runs `actions` on a fresh system against the model, throwing ``StateMachineFailure`` at the first disagreement.
    public func execute(_ actions: [Action]) throws {
        var system: System
        do {
            system = try makeSystem()
        } catch {
            throw StateMachineFailure(step: 0, action: "makeSystem()", underlying: String(describing: error))
        }
        var model = initialModel()
        for (index, action) in actions.enumerated() {
            do {
                try run(action, on: &system, model: model)
                apply(action, to: &model)
                try checkInvariants(model: model, system: system)
            } catch {
                throw StateMachineFailure(
                    step: index + 1, action: String(reflecting: action), underlying: String(describing: error))
            }
        }
    }

    /// A property that generates action sequences and executes them.
    ///
    /// Check it with ``Property/check(_:environment:)`` or a test-framework helper; a failure's
    /// shrunk counterexample is the minimal failing sequence.
    public func property(name: String, steps: ClosedRange<Int> = 1...50) -> Property<[Action]> {
        let machine = self
        return Property(name, actionSequences(steps: steps), verifying: { actions in try machine.execute(actions) })
    }
}

/// The error a state-machine run throws: which step, which action, and what went wrong.
public struct StateMachineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The one-based step at which the system disagreed with the model (0: creating the system).
    public let step: Int
    /// The failing action, through `String(reflecting:)`.
    public let action: String
    /// The description of the error the step threw.
    public let underlying: String

    /// Creates a failure report.
    public init(step: Int, action: String, underlying: String) {
        self.step = step
        self.action = action
        self.underlying = underlying
    }

    /// `step N (action): error`.
    public var description: String { "step \(step) (\(action)): \(underlying)" }
}
