import PetSpotJSON
import PetSpotPropertyEngine

// What the stateful group sends: operations on a few announcements, sequences of them, and
// parallel branches after a common prefix; and how the engine generates them.

/// The image type an upload sends.
enum PhotoKind: String, Hashable, Sendable {
    case png, jpeg

    /// The extension `photoUrl` takes for it.
    var fileExtension: String { rawValue }
    /// The declared Content-Type.
    var mediaType: String { "image/\(rawValue)" }
    /// The file name sent.
    var fileName: String { self == .png ? "pet.png" : "pet.jpg" }
}

/// The microchip number a create sends: none, or the program's `n`-th number (shown `A`, `B`, ...).
enum ChipUse: Hashable, Sendable {
    case none
    case chip(Int)

    /// The chip's index, if any.
    var index: Int? {
        if case .chip(let index) = self { return index }
        return nil
    }
}

/// One operation of a sequence. Announcements are named by slots (`#1`, `#2`, ... in the order
/// the program first names them); a slot is created once, so "create after a delete" is a create
/// of a new slot, possibly with the deleted one's microchip number.
enum SequenceOperation: Hashable, Sendable {
    /// `POST /api/v1/announcements` for `slot`, with or without a microchip number.
    case create(slot: Int, chip: ChipUse)
    /// `POST /api/v1/announcements/{id}/photos` with a new image of `kind`.
    case upload(slot: Int, PhotoKind)
    /// `GET /api/v1/announcements/{id}`.
    case details(slot: Int)
    /// `GET /images/{id}.{ext}` for the extension of `kind`.
    case photo(slot: Int, PhotoKind)
    /// `GET /api/v1/announcements`, around the program's centre (`near`) or unfiltered.
    case list(near: Bool)
    /// `DELETE /api/admin/v1/announcements/{id}` with the admin token.
    case delete(slot: Int)
    /// Creates `count` announcements with a photo at one point near the centre (a create and an
    /// upload each): enough of them show a silent limit.
    case fill(count: Int)

    /// The slot the operation names, if any.
    var slot: Int? {
        switch self {
        case .create(let slot, _), .upload(let slot, _), .details(let slot), .photo(let slot, _), .delete(let slot): slot
        case .list, .fill: nil
        }
    }

    /// Requests it sends at most (a fill: a create and an upload per announcement).
    var requestCount: Int {
        if case .fill(let count) = self { return 2 * count }
        return 1
    }

    /// Announcements it may create (each deleted when the program ends).
    var createCount: Int {
        switch self {
        case .create: 1
        case .fill(let count): count
        default: 0
        }
    }
}

/// A program: operations run one after another (`prefix`), then, when there are `lanes`, the
/// operations of each lane sent by its own client at the same time as the other lanes'.
struct SequenceProgram: Hashable, Sendable {
    /// The operations run one after another.
    var prefix: [SequenceOperation]
    /// Parallel branches (none, or two or more), each run in order by one client.
    var lanes: [[SequenceOperation]]

    /// Every operation, prefix first, then lane by lane.
    var operations: [SequenceOperation] { prefix + lanes.flatMap { $0 } }
    /// Operations in all.
    var operationCount: Int { prefix.count + lanes.reduce(0) { $0 + $1.count } }
    /// Requests the program may send, the deletes that end it included.
    var requestCost: Int { operations.reduce(0) { $0 + $1.requestCount + $1.createCount } }
    /// Whether it has parallel branches.
    var isConcurrent: Bool { !lanes.isEmpty }
    /// Whether it creates many announcements near one point.
    var isScale: Bool { operations.contains { if case .fill(let count) = $0 { return count >= 10 } else { return false } } }

    /// The slots in the order the program first names them (their labels `#1`, `#2`, ...).
    var slotOrder: [Int] {
        var seen: [Int] = []
        for operation in operations { if let slot = operation.slot, !seen.contains(slot) { seen.append(slot) } }
        return seen
    }

    /// The chips in the order the program first names them (their labels `A`, `B`, ...).
    var chipOrder: [Int] {
        var seen: [Int] = []
        for case .create(_, let chip) in operations { if let index = chip.index, !seen.contains(index) { seen.append(index) } }
        return seen
    }

    /// The program with every operation left out that its state no longer allows once others
    /// were removed (an upload to an announcement whose create went), as quickcheck-state-machine
    /// drops commands whose precondition fails; a single branch left joins the prefix.
    func normalized() -> SequenceProgram {
        var state = PlanState()
        var kept: [SequenceOperation] = []
        for operation in prefix where state.allows(operation) {
            state.apply(operation)
            kept.append(operation)
        }
        var branches: [[SequenceOperation]] = []
        for (index, lane) in lanes.enumerated() {
            var laneState = state.lane(index)
            var branch: [SequenceOperation] = []
            for operation in lane where laneState.allows(operation) {
                laneState.apply(operation)
                branch.append(operation)
            }
            if !branch.isEmpty { branches.append(branch) }
        }
        if branches.count == 1 { return SequenceProgram(prefix: kept + branches[0], lanes: []) }
        return SequenceProgram(prefix: kept, lanes: branches)
    }

    /// The labels of slots (`#1`, `#2`, ...) and chips (`A`, `B`, ...), in the order first named.
    var labels: (slots: [Int: String], chips: [Int: String]) {
        var slots: [Int: String] = [:]
        for (position, slot) in slotOrder.enumerated() { slots[slot] = "#\(position + 1)" }
        var chips: [Int: String] = [:]
        for (position, chip) in chipOrder.enumerated() {
            chips[chip] = position < 26 ? String(UnicodeScalar(UInt8(65 + position))) : "chip \(position + 1)"
        }
        return (slots, chips)
    }

    /// How `operation` reads, with the program's labels and without any state.
    func text(of operation: SequenceOperation) -> String {
        let (slots, chips) = labels
        func label(_ slot: Int) -> String { slots[slot] ?? "#?" }
        switch operation {
        case .create(let slot, let chip):
            return "create \(label(slot))" + (chip.index.map { " with microchip \(chips[$0] ?? "?")" } ?? " without a microchip")
        case .upload(let slot, let kind): return "upload a \(kind.rawValue.uppercased()) to \(label(slot))"
        case .details(let slot): return "details of \(label(slot))"
        case .photo(let slot, let kind): return "GET the \(kind.rawValue.uppercased()) of \(label(slot))"
        case .list(let near): return near ? "list around the centre" : "list, unfiltered"
        case .delete(let slot): return "delete \(label(slot))"
        case .fill(let count): return "create \(count) announcements with a photo at one point"
        }
    }

    /// The program as JSON for a report: `{"steps": [...]}`, plus `"clients": [[...], ...]` for
    /// parallel branches.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "steps", value: .array(prefix.map { .string(text(of: $0)) }))]
        if isConcurrent {
            members.append((key: "clients", value: .array(lanes.map { lane in .array(lane.map { .string(text(of: $0)) }) })))
        }
        return .object(JSONObject(members))
    }
}

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

    /// Whether `operation` may come next in this state (as ``PlanMachine`` would draw it).
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

/// How often each kind of operation is drawn (a weight of 0 never draws it).
struct PlanWeights: Sendable {
    var create = 3, upload = 3, details = 2, photo = 2, list = 2, delete = 2, fill = 0
    /// Of creates: no chip, a new chip, a chip used before (held or freed).
    var noChip = 1, newChip = 2, usedChip = 3
    /// Slots a program creates at most.
    var maxSlots = 5

    /// A plain sequence.
    static let sequential = PlanWeights(create: 2, details: 3, list: 3, maxSlots: 3)
    /// The prefix before parallel branches: mostly creates (and a photo) for the clients to share.
    static let parallelPrefix = PlanWeights(create: 8, upload: 2, details: 0, photo: 0, list: 0, delete: 1, noChip: 2, newChip: 3, usedChip: 0)
    /// The first operation of a client's branch: a create racing on a new chip, or an upload.
    static let laneOpening = PlanWeights(create: 5, upload: 6, details: 1, photo: 1, list: 1, delete: 1, noChip: 1, newChip: 4, usedChip: 0, maxSlots: 8)
    /// A branch opening with a create (clients racing on creates, one new microchip number).
    static let laneOpeningCreate = PlanWeights(create: 1, upload: 0, details: 0, photo: 0, list: 0, delete: 0, noChip: 1, newChip: 1, usedChip: 0, maxSlots: 8)
    /// A branch opening with an upload (clients racing on uploads to their announcements).
    static let laneOpeningUpload = PlanWeights(create: 0, upload: 1, details: 0, photo: 0, list: 0, delete: 0, maxSlots: 8)
    /// The rest of a client's branch: mostly reads and writes of what it named first.
    static let lane = PlanWeights(create: 1, upload: 1, details: 3, photo: 4, list: 1, delete: 1, noChip: 1, newChip: 2, usedChip: 0, maxSlots: 8)
    /// After a fill: mostly lists, some writes.
    static let afterFill = PlanWeights(create: 1, upload: 1, details: 0, photo: 0, list: 6, delete: 1)
}

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

/// The generator of programs.
enum SequencePlan {
    /// Slot numbers of lane `n`'s new announcements start at `laneSlotBase * (n + 1)`.
    static let laneSlotBase = 100

    /// How many announcements a fill creates: 21 to 25 when drawn (past a page of 20 and an index
    /// cell of 10); shrinking walks it down to the fewest that still fail.
    static let fillCount = Gen<Int> { testCase in
        let planned = testCase.planning { random -> UInt64 in 20 + random.bounded(by: 4) }
        return 1 + Int(try testCase.choice(upTo: 31, preferring: planned))
    }

    /// What the clients of a concurrent program race on first.
    enum Race: Sendable { case anything, creates, uploads }

    /// One client's branch from `state`: an opening operation (of the `race`), then up to two
    /// more (at least one after a racing create or upload).
    static func branch(from state: PlanState, race: Race) -> Gen<[SequenceOperation]> {
        let opening: PlanWeights = switch race {
        case .anything: .laneOpening
        case .creates: .laneOpeningCreate
        case .uploads: state.order.isEmpty ? .laneOpening : .laneOpeningUpload
        }
        return Gen { testCase in
            var state = state
            let opening = try testCase.draw(PlanMachine(start: state, weights: opening).actions(for: state))
            state.apply(opening)
            // After a racing write, at least one more operation (a read shows what the race did).
            let rest = race == .anything ? 0...2 : 1...2
            return [opening] + (try testCase.draw(PlanMachine(start: state, weights: .lane).actionSequences(steps: rest)))
        }
    }

    /// Lane `lane`'s copy of lane 0's branch: the same operations, on its own new announcements
    /// (with the same new microchip numbers: a race on each) and on the prefix's next
    /// announcement instead of lane 0's; an operation its state does not allow is left out.
    static func mirror(_ branch: [SequenceOperation], lane: Int, from prefix: PlanState) -> [SequenceOperation] {
        var state = prefix.lane(lane)
        func mapped(_ slot: Int) -> Int {
            if slot >= laneSlotBase { return slot - laneSlotBase + laneSlotBase * (lane + 1) }
            guard let position = prefix.order.firstIndex(of: slot) else { return slot }
            return prefix.order[(position + lane) % prefix.order.count]
        }
        var operations: [SequenceOperation] = []
        for operation in branch {
            let copy: SequenceOperation
            switch operation {
            case .create(let slot, let chip): copy = .create(slot: mapped(slot), chip: chip)
            case .upload(let slot, let kind): copy = .upload(slot: mapped(slot), kind)
            case .details(let slot): copy = .details(slot: mapped(slot))
            case .photo(let slot, let kind): copy = .photo(slot: mapped(slot), kind)
            case .delete(let slot): copy = .delete(slot: mapped(slot))
            case .list, .fill: copy = operation
            }
            guard state.allows(copy) else { continue }
            state.apply(copy)
            operations.append(copy)
        }
        return operations.isEmpty ? [.list(near: true)] : operations
    }

    /// The kinds of program, in shrinking order (a program shrinks toward a plain sequence).
    enum Kind: Sendable { case sequential, concurrent, scale }

    /// The sizes at which a program fills many announcements near one point: the middle of a
    /// round (``SequenceExplorer/programsPerRound`` programs of sizes growing from 0 to 100), so
    /// that a round has one such program and no more (each costs about 70 requests).
    static let scaleSizes = 48...52

    /// Programs: most a sequence of 1 to 14 operations (longer as the run goes on), about two in
    /// five with two or three clients at once after a short prefix, and at the sizes of
    /// ``scaleSizes`` a fill of many announcements near one point, a list around it, and up to
    /// four more operations.
    ///
    /// - Parameters:
    ///   - maxClients: clients at once at most (`run --concurrency`): 3 by default, and below 2
    ///     no program has parallel branches.
    ///   - withFill: whether the middle of the round fills many announcements (the explorer asks
    ///     for it until one such program has run: one is enough, each costs about 70 requests).
    static func programs(maxClients: Int = 3, withFill: Bool = true) -> Gen<SequenceProgram> {
        let concurrent = maxClients >= 2 ? 2 : 0
        let kinds = Gen.frequency([(3, Gen.constant(Kind.sequential)), (concurrent, Gen.constant(Kind.concurrent))])
        let scale = Gen.frequency([(1, Gen.constant(Kind.sequential)), (concurrent > 0 ? 1 : 0, Gen.constant(Kind.concurrent)), (1000, Gen.constant(Kind.scale))])
        let laneCounts = Gen.frequency([(3, Gen.constant(2)), (maxClients >= 3 ? 1 : 0, Gen.constant(3))])
        let races = Gen.frequency([(1, Gen.constant(Race.anything)), (2, Gen.constant(Race.creates)), (2, Gen.constant(Race.uploads))])
        return Gen { testCase in
            switch try testCase.draw(withFill && scaleSizes.contains(testCase.size) ? scale : kinds) {
            case .sequential:
                let operations = try testCase.draw(PlanMachine(start: PlanState(), weights: .sequential).actionSequences(steps: 1...14))
                return SequenceProgram(prefix: operations, lanes: [])
            case .scale:
                let count = try testCase.draw(fillCount)
                var state = PlanState()
                state.apply(.fill(count: count))
                state.apply(.list(near: true))
                let rest = try testCase.draw(PlanMachine(start: state, weights: .afterFill).actionSequences(steps: 0...4))
                return SequenceProgram(prefix: [.fill(count: count), .list(near: true)] + rest, lanes: [])
            case .concurrent:
                let race = try testCase.draw(races)
                let prefix = try testCase.draw(
                    PlanMachine(start: PlanState(), weights: .parallelPrefix).actionSequences(steps: race == .uploads ? 2...4 : 1...4))
                var state = PlanState()
                for operation in prefix { state.apply(operation) }
                let count = try testCase.draw(laneCounts)
                let mirrored = try testCase.draw(Gen.bool(probability: 0.7))
                var lanes: [[SequenceOperation]] = []
                for lane in 0..<(mirrored ? 1 : count) {
                    lanes.append(try testCase.draw(branch(from: state.lane(lane), race: race)))
                }
                if mirrored {
                    for lane in 1..<count { lanes.append(mirror(lanes[0], lane: lane, from: state)) }
                }
                return SequenceProgram(prefix: prefix, lanes: lanes)
            }
        }
    }
}
