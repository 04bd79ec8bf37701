import PetSpotJSON
import PetSpotPropertyEngine

/// The generator's view of a program as a ``StateMachine``: it draws each operation from the
/// ones allowed in the state so far, so a shrunk program is still a valid one (later operations
/// are drawn again from the shrunk state). It is never run as a system: the group executes
/// programs itself (``SequenceExecutor``).
struct PlanMachine: StateMachine {
    /// The state the drawn sequence starts from.
    let start: PlanState
    /// How often each operation is drawn.
    let weights: PlanWeights

    func initialModel() -> PlanState { start }
    func makeSystem() {}
    func run(_ action: SequenceOperation, on system: inout Void, model: PlanState) throws {}
    func apply(_ action: SequenceOperation, to model: inout PlanState) { model.apply(action) }

    func actions(for state: PlanState) -> Gen<SequenceOperation> {
        var weights = self.weights
        if state.afterWrite {
            weights.details *= 2
            weights.photo *= 3
            weights.list *= 2
        }
        let slots = state.order
        let live = slots.filter { state.slots[$0]?.isLive == true }
        var choices: [(weight: Int, gen: Gen<SequenceOperation>)] = []
        if slots.count < weights.maxSlots && weights.create > 0 {
            let slot = state.nextSlot
            var chips: [(weight: Int, gen: Gen<ChipUse>)] = [(weights.noChip, .constant(.none)), (weights.newChip, .constant(.chip(state.chipCount)))]
            if state.chipCount > 0 && weights.usedChip > 0 {
                // Chips freed by a delete first: their reuse must succeed.
                let freed = (0..<state.chipCount).filter { state.chipHolders[$0] == nil }
                let held = (0..<state.chipCount).filter { state.chipHolders[$0] != nil }
                if !freed.isEmpty { chips.append((weights.usedChip * 3, Gen.element(of: freed).map { ChipUse.chip($0) })) }
                if !held.isEmpty { chips.append((weights.usedChip, Gen.element(of: held).map { ChipUse.chip($0) })) }
            }
            choices.append((weights.create, Gen.frequency(chips).map { SequenceOperation.create(slot: slot, chip: $0) }))
        }
        // The focused slot first (drawn 4 times in 5), else any.
        func pick(_ candidates: [Int]) -> Gen<Int> {
            guard let focus = state.focus, candidates.contains(focus), candidates.count > 1 else { return Gen.element(of: candidates) }
            return Gen.frequency([(4, Gen.constant(focus)), (1, Gen.element(of: candidates))])
        }
        if !slots.isEmpty {
            let kinds = Gen.frequency([(3, Gen.constant(PhotoKind.png)), (1, Gen.constant(PhotoKind.jpeg))])
            choices.append((weights.upload, zip(pick(slots), kinds).map { SequenceOperation.upload(slot: $0, $1) }))
            choices.append((weights.details, pick(slots).map { SequenceOperation.details(slot: $0) }))
            choices.append((weights.delete, pick(live.isEmpty ? slots : live).map { SequenceOperation.delete(slot: $0) }))
        }
        let withPhoto = slots.filter { state.slots[$0]?.photo != nil }
        if !withPhoto.isEmpty {
            let photos = state.slots
            choices.append((weights.photo, pick(withPhoto).map { SequenceOperation.photo(slot: $0, photos[$0]?.photo ?? .png) }))
        }
        choices.append((weights.list, Gen.frequency([(2, Gen.constant(true)), (1, Gen.constant(false))]).map { SequenceOperation.list(near: $0) }))
        if state.afterWrite, let read = state.lastRead, state.allows(read), weights.details + weights.photo + weights.list > 0 {
            choices.append((8, Gen.constant(read)))
        }
        if !state.filled && weights.fill > 0 {
            choices.append((weights.fill, SequencePlan.fillCount.map { SequenceOperation.fill(count: $0) }))
        }
        return Gen.frequency(choices.filter { $0.weight > 0 })
    }
}
