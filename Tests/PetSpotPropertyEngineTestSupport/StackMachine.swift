import PetSpotPropertyEngine

// Shared by the engine's Swift Testing and XCTest targets: a stateful machine with a planted bug.

/// A stack with a planted bug: popping when it holds exactly two elements returns the bottom one.
public struct BuggyStack {
    /// An empty stack.
    public init() {}

    private var storage: [Int] = []
    /// The number of elements.
    public var count: Int { storage.count }

    /// Pushes `value`.
    public mutating func push(_ value: Int) { storage.append(value) }

    /// Pops the top element (except with exactly two elements: the planted bug).
    public mutating func pop() -> Int? {
        if storage.count == 2 { return storage.remove(at: 0) }
        return storage.popLast()
    }
}

/// The stack's state machine: push and pop against a model array; the minimal failing sequence
/// is `[push(0), push(1), pop]`.
public struct StackMachine: StateMachine {
    /// The machine.
    public init() {}

    /// Push a value, or pop.
    public enum Action: Hashable, Sendable, CustomStringConvertible {
        case push(Int)
        case pop

        /// `push(n)` or `pop`.
        public var description: String {
            switch self {
            case .push(let value): "push(\(value))"
            case .pop: "pop"
            }
        }
    }

    public func initialModel() -> [Int] { [] }
    public func makeSystem() -> BuggyStack { BuggyStack() }

    public func actions(for model: [Int]) -> Gen<Action> {
        let push = Gen.int(in: 0...9).map(Action.push)
        return model.isEmpty ? push : .oneOf(push, .constant(.pop))
    }

    public func apply(_ action: Action, to model: inout [Int]) {
        switch action {
        case .push(let value): model.append(value)
        case .pop: model.removeLast()
        }
    }

    public func run(_ action: Action, on system: inout BuggyStack, model: [Int]) throws {
        switch action {
        case .push(let value): system.push(value)
        case .pop:
            let popped = system.pop()
            try require(popped == model.last, "pop returned \(String(describing: popped)), expected \(String(describing: model.last))")
        }
    }

    public func checkInvariants(model: [Int], system: BuggyStack) throws {
        try require(system.count == model.count, "stack holds \(system.count) elements, model \(model.count)")
    }
}
