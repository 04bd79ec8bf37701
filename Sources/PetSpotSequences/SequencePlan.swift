import PetSpotJSON
import PetSpotPropertyEngine

// What the stateful group sends: operations on a few announcements, sequences of them, and
// parallel branches after a common prefix; and how the engine generates them.

/// The generator of programs.
enum SequencePlan {
    /// Slot numbers of lane `n`'s new announcements start at `laneSlotBase * (n + 1)`.
    static let laneSlotBase = 100

    /// The most announcements a fill creates.
    static let maxFillCount = 32

    /// How many announcements a drawn fill creates: 21 to 25 (past a page of 20 and an index
    /// cell of 10); shrinking walks it down to the fewest that still fail.
    static func plannedFillCount(_ random: inout Xoshiro256StarStar) -> Int {
        21 + Int(random.bounded(by: 4))
    }

    /// What the clients of a concurrent program race on first: anything, creates with one new
    /// microchip number, uploads, or deletes of one announcement of the prefix (its first).
    enum Race: Sendable { case anything, creates, uploads, deletes }

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

    /// Operations run one after another at most (a program's prefix).
    static let maxPrefixSteps = 14
    /// Operations of one client's branch at most.
    static let maxBranchSteps = 3

    /// What a fresh draw aims for: the kind of program, its race, its clients and the lengths
    /// its collections are planned to. Only generation reads it: a replay reads the choices.
    struct Plan: Sendable {
        var kind: Kind
        var race: Race
        /// Clients at once (0 for a program run one operation after another).
        var clients: Int
        /// Whether the clients after the first repeat its branch on their own announcements.
        var mirrored: Bool
        /// The prefix's length; `nil`: growing with the size, as a plain sequence's does.
        var prefixLength: Int?
        var fillCount: Int

        /// A plan for a program drawn at `size`.
        static func random(maxClients: Int, withFill: Bool, size: Int, _ random: inout Xoshiro256StarStar) -> Plan {
            let concurrent = maxClients >= 2 ? 2 : 0
            let kind: Kind = withFill && scaleSizes.contains(size)
                ? [Kind.sequential, .concurrent, .scale][PlanMachine.weighted([1, concurrent > 0 ? 1 : 0, 1000], &random)]
                : [Kind.sequential, .concurrent][PlanMachine.weighted([3, concurrent], &random)]
            let race = [Race.anything, .creates, .uploads, .deletes][PlanMachine.weighted([1, 2, 2, 1], &random)]
            let clients = PlanMachine.weighted([3, maxClients >= 3 ? 1 : 0], &random) == 0 ? 2 : 3
            // Mirrored branches name different announcements of the prefix: racing deletes name one.
            let mirrored = race != .deletes && random.unitDouble() < 0.7
            let prefixLength: Int? = switch kind {
            case .sequential: nil
            case .concurrent: plannedLength(in: race == .uploads ? 2...4 : 1...4, size: size, &random)
            case .scale: 2 + plannedLength(in: 0...4, size: size, &random)
            }
            return Plan(
                kind: kind, race: race, clients: kind == .concurrent ? clients : 0, mirrored: mirrored, prefixLength: prefixLength,
                fillCount: plannedFillCount(&random))
        }
    }

    /// A length in `range` distributed as a collection of that range drawn at `size` is: the
    /// maximum and the minimum one time in sixteen each, else growing with the size.
    static func plannedLength(in range: ClosedRange<Int>, size: Int, _ random: inout Xoshiro256StarStar) -> Int {
        let spread = range.upperBound - range.lowerBound
        guard spread > 0 else { return range.lowerBound }
        switch random.next() >> 60 {
        case 0: return range.upperBound
        case 1: return range.lowerBound
        default: break
        }
        let average = Double(min(spread, 2 + size / 4))
        var length = range.lowerBound
        while length < range.upperBound && random.unitDouble() < average / (average + 1) { length += 1 }
        return length
    }

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
        drawnPrograms(maxClients: maxClients, withFill: withFill).map(\.program)
    }

    /// The programs of ``programs(maxClients:withFill:)``, with where each operation run one
    /// after another lies in the choices.
    ///
    /// **Layout.** Whatever the kind of program, its choices are the same collections: the
    /// prefix (up to ``maxPrefixSteps`` steps of ``PlanMachine``, at least one when drawn fresh), then the clients (none, or up
    /// to three, never more than `maxClients`), each a choice (0: its own branch of 1 to
    /// ``maxBranchSteps`` steps; 1: the first client's branch again, on its own announcements)
    /// and its steps. A single client left joins the prefix. So the engine's passes that delete
    /// collection elements drop a step or a whole client's branch, and the program that replays
    /// is valid whatever was dropped: a step its state no longer allows is skipped (``PlanMachine``).
    static func drawnPrograms(maxClients: Int = 3, withFill: Bool = true) -> Gen<DrawnProgram> {
        let clientsAtMost = maxClients >= 2 ? min(3, maxClients) : 0
        return Gen { testCase in
            let size = testCase.size
            let plan = testCase.planning { random in Plan.random(maxClients: maxClients, withFill: withFill, size: size, &random) }
            let prefixWeights: PlanWeights = switch plan?.kind {
            case .concurrent?: .parallelPrefix
            case .scale?: .afterFill
            default: .sequential
            }
            var state = PlanState()
            var prefix: [SequenceOperation] = []
            var stepChoices: [Range<Int>] = []
            // Drawn with a step at least, the prefix may lose every step when shrunk (clients at once need none before them).
            try testCase.drawCollection(count: 0...maxPrefixSteps, freshMinimum: 1, plannedLength: plan?.prefixLength, what: "program") { testCase in
                // A step's choices start with the collection's "another?" one.
                let start = testCase.choiceCount - 1
                let forced: SequenceOperation? = switch (plan?.kind, prefix.count) {
                case (.scale?, 0): .fill(count: plan?.fillCount ?? 1)
                case (.scale?, 1): .list(near: true)
                default: nil
                }
                guard let operation = try PlanMachine(weights: prefixWeights).draw(&testCase, in: state, lane: nil, planned: forced) else { return }
                state.apply(operation)
                prefix.append(operation)
                stepChoices.append(start..<testCase.choiceCount)
            }
            var lanes: [[SequenceOperation]] = []
            var laneChoices: [[Range<Int>]] = []
            try testCase.drawCollection(count: 0...clientsAtMost, plannedLength: plan?.clients ?? 0, what: "clients") { testCase in
                let position = lanes.count
                let mirrors = try testCase.choice(upTo: 1, preferring: plan.map { $0.mirrored && position > 0 ? 1 : 0 }) == 1
                if mirrors {
                    // A client with no branch before it to repeat sends nothing.
                    guard let first = lanes.first else { return }
                    lanes.append(mirror(first, lane: position, from: state))
                    laneChoices.append([])
                    return
                }
                let race = plan?.race ?? .anything
                let opening: PlanWeights = switch race {
                case .anything, .deletes: .laneOpening
                case .creates: .laneOpeningCreate
                case .uploads: state.order.isEmpty ? .laneOpening : .laneOpeningUpload
                }
                // After a racing write, at least one more operation (a read shows what the race did).
                let length = testCase.planning { random in 1 + plannedLength(in: race == .anything ? 0...2 : 1...2, size: size, &random) }
                var laneState = state.lane(position)
                var operations: [SequenceOperation] = []
                var ranges: [Range<Int>] = []
                var steps = 0
                try testCase.drawCollection(count: 1...maxBranchSteps, plannedLength: length, what: "client's branch") { testCase in
                    let start = testCase.choiceCount - (steps == 0 ? 0 : 1)
                    defer { steps += 1 }
                    let forced: SequenceOperation? = if steps == 0, plan != nil, race == .deletes, let first = state.order.first {
                        .delete(slot: first)
                    } else {
                        nil
                    }
                    let machine = PlanMachine(weights: steps == 0 ? opening : .lane)
                    guard let operation = try machine.draw(&testCase, in: laneState, lane: position, planned: forced) else { return }
                    laneState.apply(operation)
                    operations.append(operation)
                    ranges.append(start..<testCase.choiceCount)
                }
                guard !operations.isEmpty else { return }
                lanes.append(operations)
                laneChoices.append(ranges)
            }
            if lanes.count == 1 {
                return DrawnProgram(program: SequenceProgram(prefix: prefix + lanes[0], lanes: []), stepChoices: stepChoices + laneChoices[0])
            }
            return DrawnProgram(program: SequenceProgram(prefix: prefix, lanes: lanes), stepChoices: stepChoices)
        }
    }
}
