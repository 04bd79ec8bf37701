import PetSpotJSON
import PetSpotPropertyEngine

/// What the generator knows of the store while it draws a program: which slots exist, are live
/// and have a photo, and which chips are held. It assumes a backend that keeps the contract
/// (a create with a held chip is refused, so its slot is never named again).
struct PlanState: Sendable {
    /// One announcement as the generator sees it.
    struct Slot: Sendable {
        var isLive = true
        var chip: Int?
        var photo: PhotoKind?
    }

    /// The announcements created, by slot.
    var slots: [Int: Slot] = [:]
    /// Slots in creation order (draws pick from this list, so they are deterministic).
    var order: [Int] = []
    /// Live holder of each chip.
    var chipHolders: [Int: Int] = [:]
    /// Chips named so far; a new chip is the next index.
    var chipCount = 0
    /// The next slot number a create takes.
    var nextSlot = 0
    /// Whether the program has a fill already.
    var filled = false
    /// The slot the last operation named: later operations pick it more often than the others,
    /// so that orders of operations on one announcement (details, upload, details) turn up.
    var focus: Int?
    /// Whether the last operation wrote (create, upload, delete, fill): reads come more often
    /// right after a write, where a stale cache or a lost write shows.
    var afterWrite = false
    /// The last read (details, photo, list): after a write it is drawn again more often (read,
    /// write, read again is where a cache that a write does not invalidate shows).
    var lastRead: SequenceOperation?

    /// The state after `operation`, on a backend that keeps the contract.
    mutating func apply(_ operation: SequenceOperation) {
        if let slot = operation.slot { focus = slot }
        switch operation {
        case .create, .upload, .delete, .fill: afterWrite = true
        case .details, .photo, .list:
            afterWrite = false
            lastRead = operation
        }
        switch operation {
        case .create(let slot, let chip):
            nextSlot = max(nextSlot, slot + 1)
            if let index = chip.index {
                chipCount = max(chipCount, index + 1)
                if chipHolders[index] != nil {
                    focus = order.last
                    return
                }
                chipHolders[index] = slot
            }
            slots[slot] = Slot(chip: chip.index)
            order.append(slot)
        case .upload(let slot, let kind):
            if slots[slot]?.isLive == true { slots[slot]?.photo = kind }
        case .delete(let slot):
            guard slots[slot]?.isLive == true else { return }
            slots[slot]?.isLive = false
            if let chip = slots[slot]?.chip, chipHolders[chip] == slot { chipHolders[chip] = nil }
        case .fill:
            filled = true
        case .details, .photo, .list:
            break
        }
    }

    /// The state lane `lane` starts from: this one, with its new slots numbered from
    /// ``SequencePlan/laneSlotBase`` times `lane + 1`, so that lanes never name each other's slots
    /// (their new chips are the same: a race on one number), focused on a slot of its own when
    /// the prefix made enough.
    func lane(_ lane: Int) -> PlanState {
        var state = self
        state.nextSlot = SequencePlan.laneSlotBase * (lane + 1)
        state.focus = order.isEmpty ? nil : order[lane % order.count]
        return state
    }

    /// Whether `operation` may come next in this state: a replayed step it does not allow is skipped (``PlanMachine``).
    func allows(_ operation: SequenceOperation) -> Bool {
        switch operation {
        case .create(let slot, _): return slots[slot] == nil && !order.contains(slot)
        case .upload(let slot, _), .details(let slot), .delete(let slot): return slots[slot] != nil
        case .photo(let slot, let kind): return slots[slot]?.photo == kind
        case .list: return true
        case .fill: return !filled
        }
    }
}
