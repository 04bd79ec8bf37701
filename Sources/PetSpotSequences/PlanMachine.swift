import PetSpotJSON
import PetSpotPropertyEngine

/// One step of a program as choices, and how the generator draws it.
///
/// **The choices.** Every step is three choices whatever it does: a kind (``StepKind``), a slot
/// and a parameter (``StepChoices``). What they mean does not depend on the state: a slot is an
/// announcement's own number, not a position among the announcements made so far. So deleting a
/// step's choices, or changing its kind, leaves every later step reading its own choices, and
/// a replayed step that its state no longer allows (it names an announcement whose create went,
/// a photo that was never uploaded) is skipped: the program that replays is a valid shorter one,
/// as a Hypothesis state machine skips a rule whose bundle value no longer exists.
///
/// **The plan.** When drawing fresh, the step is chosen among those its state allows with
/// ``weights`` (reads more often right after a write, the last read again, the announcement
/// last named four times in five) and recorded as the choices that read back as it.
struct PlanMachine {
    /// How often each operation is drawn.
    let weights: PlanWeights

    /// Draws one step in `state`, as the lane `lane` of a program (`nil`: the steps run one after
    /// another): planned, or `planned` when given, if drawing fresh; read from the choices
    /// otherwise. Returns the operation, or `nil` when the state does not allow what the
    /// choices say (the step is skipped).
    func draw(
        _ testCase: inout TestCase, in state: PlanState, lane: Int?, planned forced: SequenceOperation? = nil
    ) throws -> SequenceOperation? {
        let planned = forced ?? testCase.planning { random in plan(in: state, random: &random) }
        let encoded = planned.map { StepChoices($0, lane: lane) }
        let kind = StepKind(rawValue: try testCase.choice(upTo: StepKind.last, preferring: encoded?.kind.rawValue)) ?? .list
        let slot = try testCase.choice(upTo: kind.slotBound, preferring: encoded?.slot)
        let parameter = try testCase.choice(upTo: kind.parameterBound, preferring: encoded?.parameter)
        guard let operation = StepChoices(kind: kind, slot: slot, parameter: parameter).operation(in: state, lane: lane),
            state.allows(operation)
        else { return nil }
        return operation
    }

    /// The operation the generator picks in `state`: among those the state allows, by weight.
    func plan(in state: PlanState, random: inout Xoshiro256StarStar) -> SequenceOperation {
        var weights = self.weights
        if state.afterWrite {
            weights.details *= 2
            weights.photo *= 3
            weights.list *= 2
        }
        let slots = state.order
        let live = slots.filter { state.slots[$0]?.isLive == true }
        // The focused slot first (picked 4 times in 5), else any.
        func pick(_ candidates: [Int], _ random: inout Xoshiro256StarStar) -> Int {
            if let focus = state.focus, candidates.contains(focus), candidates.count > 1, Self.weighted([4, 1], &random) == 0 { return focus }
            return candidates[Int(random.bounded(by: UInt64(candidates.count - 1)))]
        }
        var choices: [(weight: Int, operation: (inout Xoshiro256StarStar) -> SequenceOperation)] = []
        if slots.count < weights.maxSlots && weights.create > 0 {
            let slot = state.nextSlot
            var chips: [(weight: Int, chip: (inout Xoshiro256StarStar) -> ChipUse)] = [
                (weights.noChip, { _ in .none }), (weights.newChip, { _ in .chip(state.chipCount) }),
            ]
            if state.chipCount > 0 && weights.usedChip > 0 {
                // Chips freed by a delete first: their reuse must succeed.
                let freed = (0..<state.chipCount).filter { state.chipHolders[$0] == nil }
                let held = (0..<state.chipCount).filter { state.chipHolders[$0] != nil }
                if !freed.isEmpty { chips.append((weights.usedChip * 3, { .chip(freed[Int($0.bounded(by: UInt64(freed.count - 1)))]) })) }
                if !held.isEmpty { chips.append((weights.usedChip, { .chip(held[Int($0.bounded(by: UInt64(held.count - 1)))]) })) }
            }
            choices.append((weights.create, { random in
                .create(slot: slot, chip: chips[Self.weighted(chips.map(\.weight), &random)].chip(&random))
            }))
        }
        if !slots.isEmpty {
            choices.append((weights.upload, { random in
                let slot = pick(slots, &random)
                return .upload(slot: slot, Self.weighted([3, 1], &random) == 0 ? .png : .jpeg)
            }))
            choices.append((weights.details, { .details(slot: pick(slots, &$0)) }))
            choices.append((weights.delete, { .delete(slot: pick(live.isEmpty ? slots : live, &$0)) }))
        }
        let withPhoto = slots.filter { state.slots[$0]?.photo != nil }
        if !withPhoto.isEmpty {
            choices.append((weights.photo, { random in
                let slot = pick(withPhoto, &random)
                return .photo(slot: slot, state.slots[slot]?.photo ?? .png)
            }))
        }
        choices.append((weights.list, { .list(near: Self.weighted([2, 1], &$0) == 0) }))
        if state.afterWrite, let read = state.lastRead, state.allows(read), weights.details + weights.photo + weights.list > 0 {
            choices.append((8, { _ in read }))
        }
        if !state.filled && weights.fill > 0 {
            choices.append((weights.fill, { .fill(count: SequencePlan.plannedFillCount(&$0)) }))
        }
        choices = choices.filter { $0.weight > 0 }
        guard !choices.isEmpty else { return .list(near: true) }
        return choices[Self.weighted(choices.map(\.weight), &random)].operation(&random)
    }

    /// An index into `weights` drawn with probability proportional to its weight (none
    /// negative, at least one positive).
    static func weighted(_ weights: [Int], _ random: inout Xoshiro256StarStar) -> Int {
        var ticket = Int(random.bounded(by: UInt64(weights.reduce(0, +) - 1)))
        for (index, weight) in weights.enumerated() {
            if ticket < weight { return index }
            ticket -= weight
        }
        return weights.count - 1
    }
}

/// What a step does, as its first choice: reads first, then writes, the costly fill last, so a
/// step shrinks toward a list (one request, nothing changed).
enum StepKind: UInt64, CaseIterable, Sendable {
    case list, details, photo, create, upload, delete, fill

    /// The largest kind choice.
    static let last = StepKind.fill.rawValue

    /// The largest slot choice: none for a list or a fill.
    var slotBound: UInt64 {
        switch self {
        case .list, .fill: 0
        default: StepChoices.maxSlotChoice
        }
    }

    /// The largest parameter choice: a list's filter, a create's microchip, an upload's image
    /// type, a fill's count less one.
    var parameterBound: UInt64 {
        switch self {
        case .list, .upload: 1
        case .create: StepChoices.maxChipChoice
        case .fill: UInt64(SequencePlan.maxFillCount - 1)
        case .details, .photo, .delete: 0
        }
    }
}

/// The three choices of a step, and the operation they read as.
///
/// A slot choice below ``laneSlotChoices`` names that slot of the prefix; in a client's branch,
/// one from ``laneSlotChoices`` up names the branch's own announcement `choice - laneSlotChoices`
/// (slot ``SequencePlan/laneSlotBase`` times the branch's position plus one, plus that). The
/// parameter: a list's 0 is around the centre, 1 unfiltered; a create's 0 is no microchip, `n`
/// the program's `n-1`-th number; an upload's 0 is a PNG, 1 a JPEG; a fill's is its count less one.
struct StepChoices: Hashable, Sendable {
    /// Slot choices that name the prefix's slots; the branch's own come after.
    static let laneSlotChoices: UInt64 = 8
    /// The largest slot choice.
    static let maxSlotChoice: UInt64 = 2 * laneSlotChoices - 1
    /// The largest microchip choice (the program's 15th number).
    static let maxChipChoice: UInt64 = 15

    var kind: StepKind
    var slot: UInt64
    var parameter: UInt64

    init(kind: StepKind, slot: UInt64, parameter: UInt64) {
        self.kind = kind
        self.slot = slot
        self.parameter = parameter
    }

    /// The choices that read back as `operation` in lane `lane` (a photo's image type is the
    /// state's, not a choice).
    init(_ operation: SequenceOperation, lane: Int?) {
        func slotChoice(_ slot: Int) -> UInt64 {
            guard let lane, slot >= SequencePlan.laneSlotBase else { return UInt64(slot) }
            return Self.laneSlotChoices + UInt64(slot - SequencePlan.laneSlotBase * (lane + 1))
        }
        switch operation {
        case .list(let near): self.init(kind: .list, slot: 0, parameter: near ? 0 : 1)
        case .details(let slot): self.init(kind: .details, slot: slotChoice(slot), parameter: 0)
        case .photo(let slot, _): self.init(kind: .photo, slot: slotChoice(slot), parameter: 0)
        case .create(let slot, let chip): self.init(kind: .create, slot: slotChoice(slot), parameter: chip.index.map { UInt64($0) + 1 } ?? 0)
        case .upload(let slot, let kind): self.init(kind: .upload, slot: slotChoice(slot), parameter: kind == .png ? 0 : 1)
        case .delete(let slot): self.init(kind: .delete, slot: slotChoice(slot), parameter: 0)
        case .fill(let count): self.init(kind: .fill, slot: 0, parameter: UInt64(max(1, count) - 1))
        }
    }

    /// The operation these choices read as in `state`, in lane `lane`; `nil` for a branch's
    /// create of a prefix slot (a branch creates only its own) and a photo never uploaded.
    func operation(in state: PlanState, lane: Int?) -> SequenceOperation? {
        let named: Int
        if let lane, slot >= Self.laneSlotChoices {
            named = SequencePlan.laneSlotBase * (lane + 1) + Int(slot - Self.laneSlotChoices)
        } else {
            named = Int(slot)
        }
        switch kind {
        case .list: return .list(near: parameter == 0)
        case .details: return .details(slot: named)
        case .photo: return state.slots[named]?.photo.map { .photo(slot: named, $0) }
        case .create:
            if lane != nil && slot < Self.laneSlotChoices { return nil }
            return .create(slot: named, chip: parameter == 0 ? .none : .chip(Int(parameter) - 1))
        case .upload: return .upload(slot: named, parameter == 0 ? .png : .jpeg)
        case .delete: return .delete(slot: named)
        case .fill: return .fill(count: Int(parameter) + 1)
        }
    }
}
