import PetSpotPropertyEngine
import PetSpotPropertyEngineTestSupport
import Testing

@Suite("Stateful (model-based) testing")
struct StateMachineTests {
    @Test("generated sequences respect preconditions (no pop on an empty model)")
    func preconditions() {
        let sequences = StackMachine().actionSequences(steps: 1...30).samples(count: 200, seed: 4)
        for actions in sequences {
            var depth = 0
            for action in actions {
                if action == .pop { depth -= 1 } else { depth += 1 }
                #expect(depth >= 0)
            }
        }
        #expect(sequences.contains { $0.contains(.pop) })
    }

    @Test("the push, push, pop bug shrinks to the minimal sequence from every seed")
    func minimalSequence() {
        for seed in plantedSeeds {
            let result = StackMachine().property(name: "stack").check(PropertyConfiguration(seed: seed, readsEnvironment: false))
            guard let failure = result.failure else {
                Issue.record("the planted stack bug was not found with seed \(seed)")
                continue
            }
            #expect(failure.shrunk == [.push(0), .push(1), .pop], "seed \(seed)")
            #expect(failure.message == "step 3 (pop): pop returned Optional(0), expected Optional(1)")
        }
    }

    @Test("a correct system passes")
    func correctSystemPasses() {
        struct Honest: StateMachine {
            func initialModel() -> Int { 0 }
            func makeSystem() -> [Int] { [] }
            func actions(for model: Int) -> Gen<Bool> { model == 0 ? .constant(true) : .bool }
            func apply(_ action: Bool, to model: inout Int) { model += action ? 1 : -1 }
            func run(_ action: Bool, on system: inout [Int], model: Int) throws {
                if action { system.append(model) } else { _ = system.popLast() }
            }
            func checkInvariants(model: Int, system: [Int]) throws {
                try require(system.count == model, "count \(system.count) != \(model)")
            }
        }
        #expect(Honest().property(name: "honest").check(PropertyConfiguration(seed: 1, readsEnvironment: false)).isPassed)
    }
}
