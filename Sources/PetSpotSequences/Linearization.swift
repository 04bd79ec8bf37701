import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotModel

/// Whether the answers of parallel branches match some order of the same operations run one
/// after another (linearisability against the model, as quickcheck-state-machine checks it):
/// a depth-first search over the interleavings that keep each branch's order, judging every
/// answer in the model state of its place. With a few short branches (at most 3 of 3 steps:
/// 1,680 orders) the search is cheap.
enum Linearization {
    /// The closest an order came: the steps it placed, the step no remaining choice could place
    /// next and why, and the steps never placed.
    struct Closest: Error, Sendable {
        var order: [(step: ExecutedStep, accepted: SequenceOracle.Accepted)]
        var blocked: (step: ExecutedStep, violation: SequenceOracle.Violation)
        var unplaced: [ExecutedStep]
    }

    /// An order of every branch step whose answers all keep the contract, or the closest one.
    static func search(
        _ branches: [[ExecutedStep]], from model: StoreModel, firstNumber: Int, oracle: SequenceOracle
    ) -> Result<[(step: ExecutedStep, accepted: SequenceOracle.Accepted)], Closest> {
        var best: Closest?
        var visited = 0
        func explore(_ positions: [Int], _ model: StoreModel, _ order: [(step: ExecutedStep, accepted: SequenceOracle.Accepted)])
            -> [(step: ExecutedStep, accepted: SequenceOracle.Accepted)]?
        {
            visited += 1
            if positions.enumerated().allSatisfy({ $0.element == branches[$0.offset].count }) { return order }
            guard visited < 200_000 else { return nil }
            for lane in branches.indices where positions[lane] < branches[lane].count {
                let step = branches[lane][positions[lane]]
                switch oracle.check(step, number: firstNumber + order.count, in: model, concurrent: true) {
                case .success(let accepted):
                    var next = positions
                    next[lane] += 1
                    if let found = explore(next, accepted.model, order + [(step, accepted)]) { return found }
                case .failure(let violation):
                    if best == nil || order.count > best!.order.count {
                        var unplaced: [ExecutedStep] = []
                        for other in branches.indices {
                            let from = positions[other] + (other == lane ? 1 : 0)
                            if from < branches[other].count { unplaced += branches[other][from...] }
                        }
                        best = Closest(order: order, blocked: (step, violation), unplaced: unplaced)
                    }
                }
            }
            return nil
        }
        if let order = explore(Array(repeating: 0, count: branches.count), model, []) { return .success(order) }
        if let best { return .failure(best) }
        // Only when the search gave up before judging any step (it never does with short branches).
        let first = branches.first { !$0.isEmpty }?.first ?? ExecutedStep(lane: 0, operation: .list(near: true), exchanges: [], notSent: nil, images: [])
        let gaveUp = SequenceOracle.Violation(
            contract: .concurrent, action: "", message: "the search for an order gave up after \(visited) orders", expected: "an order", outcome: "")
        return .failure(Closest(order: [], blocked: (first, gaveUp), unplaced: []))
    }
}
