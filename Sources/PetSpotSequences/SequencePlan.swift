import PetSpotJSON
import PetSpotPropertyEngine

// What the stateful group sends: operations on a few announcements, sequences of them, and
// parallel branches after a common prefix; and how the engine generates them.

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

    /// What the clients of a concurrent program race on first: anything, creates with one new
    /// microchip number, uploads, or deletes of one announcement of the prefix (its first).
    enum Race: Sendable { case anything, creates, uploads, deletes }

    /// One client's branch from `state`: an opening operation (of the `race`), then up to two
    /// more (at least one after a racing write).
    static func branch(from state: PlanState, race: Race) -> Gen<[SequenceOperation]> {
        let opening: PlanWeights = switch race {
        case .anything, .deletes: .laneOpening
        case .creates: .laneOpeningCreate
        case .uploads: state.order.isEmpty ? .laneOpening : .laneOpeningUpload
        }
        return Gen { testCase in
            var state = state
            let opening = if race == .deletes, let first = state.order.first {
                SequenceOperation.delete(slot: first)
            } else {
                try testCase.draw(PlanMachine(start: state, weights: opening).actions(for: state))
            }
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
        let races = Gen.frequency([
            (1, Gen.constant(Race.anything)), (2, Gen.constant(Race.creates)), (2, Gen.constant(Race.uploads)), (1, Gen.constant(Race.deletes)),
        ])
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
                // Mirrored lanes name different announcements of the prefix: racing deletes name one.
                let mirrored = race == .deletes ? false : try testCase.draw(Gen.bool(probability: 0.7))
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
