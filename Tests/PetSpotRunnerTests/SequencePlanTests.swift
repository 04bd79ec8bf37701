import Foundation
import PetSpotPropertyEngine
@testable import PetSpotSequences
import Testing

/// The programs the stateful group generates: valid by construction, and rich enough that the
/// orders of requests each planted sequence or concurrency defect needs turn up in a default run.
@Suite("sequence programs")
struct SequencePlanTests {
    /// The programs one exploration of `seed` draws before spending `requests` (as the explorer
    /// draws them: rounds of 25, sizes growing over a round).
    static func explored(seed: UInt64, requests: Int = SequenceContracts.exploringAllowance) -> [SequenceProgram] {
        var programs: [SequenceProgram] = []
        var spent = 0
        var round: UInt64 = 0
        while spent < requests && round < 40 {
            let generator = SequencePlan.programs(withFill: !programs.contains(where: \.isScale))
            var random = Xoshiro256StarStar(seed: (seed ^ 0x5345_5155_454E_4345) &+ round &* 0x9E37_79B9_7F4A_7C15)
            for index in 0..<SequenceExplorer.programsPerRound {
                let size = 100 * index / (SequenceExplorer.programsPerRound - 1)
                var testCase = TestCase(random: random.split(), size: size)
                guard let program = try? generator.draw(&testCase) else { continue }
                guard spent + program.requestCost <= requests else { return programs }
                spent += program.requestCost
                programs.append(program)
            }
            round += 1
        }
        return programs
    }

    /// Whether `program` is one the generator can make: every operation allowed where it stands
    /// (the prefix in order, each branch from the prefix's state as its client), no branch empty,
    /// and none or at least two branches. (A replay may skip every step of the prefix.)
    static func isValid(_ program: SequenceProgram) -> Bool {
        var state = PlanState()
        for operation in program.prefix {
            guard state.allows(operation) else { return false }
            state.apply(operation)
        }
        guard program.lanes.count != 1 else { return false }
        for (index, lane) in program.lanes.enumerated() {
            guard !lane.isEmpty else { return false }
            var laneState = state.lane(index)
            for operation in lane {
                guard laneState.allows(operation) else { return false }
                laneState.apply(operation)
            }
        }
        return true
    }

    /// Whether `operations` hold `pattern` as a subsequence on one slot (the slot bound at the first
    /// operation that names one).
    static func has(_ operations: [SequenceOperation], _ pattern: [(SequenceOperation) -> Bool]) -> Bool {
        var index = 0
        for operation in operations where index < pattern.count {
            if pattern[index](operation) { index += 1 }
        }
        return index == pattern.count
    }

    /// Whether details read before an upload that changes the photoUrl, and again after it (the
    /// announcement live throughout), as a details cache an upload does not invalidate needs.
    static func staleDetailsShows(_ operations: [SequenceOperation]) -> Bool {
        var state = PlanState()
        var cached: Set<Int> = [], changed: Set<Int> = []
        for operation in operations {
            switch operation {
            case .details(let slot) where state.slots[slot]?.isLive == true:
                if changed.contains(slot) { return true }
                cached.insert(slot)
            case .upload(let slot, let kind) where state.slots[slot]?.isLive == true:
                if cached.contains(slot) && state.slots[slot]?.photo != kind { changed.insert(slot) }
            case .delete(let slot):
                cached.remove(slot)
                changed.remove(slot)
            default: break
            }
            state.apply(operation)
        }
        return false
    }

    /// Whether a list is read again with the same query, no create between, after what it shows
    /// changed (a list cache only creates invalidate shows).
    static func staleListShows(_ operations: [SequenceOperation]) -> Bool {
        var state = PlanState()
        var cached: [Bool: [Int: PhotoKind]] = [:]
        func visible() -> [Int: PhotoKind] {
            var shown: [Int: PhotoKind] = [:]
            for (slot, stored) in state.slots where stored.isLive { if let photo = stored.photo { shown[slot] = photo } }
            return shown
        }
        for operation in operations {
            switch operation {
            case .create, .fill: cached = [:]
            case .list(let near):
                if let seen = cached[near], seen != visible() { return true }
                cached[near] = visible()
            default: break
            }
            state.apply(operation)
        }
        return false
    }

    /// Whether an announcement with a photo is deleted and a list follows (a soft delete shows).
    static func softDeleteShows(_ operations: [SequenceOperation]) -> Bool {
        var state = PlanState()
        var deletedWithPhoto = false
        for operation in operations {
            if case .delete(let slot) = operation, state.slots[slot]?.isLive == true, state.slots[slot]?.photo != nil { deletedWithPhoto = true }
            if case .list = operation, deletedWithPhoto { return true }
            state.apply(operation)
        }
        return false
    }

    /// The patterns, by the defect they expose: the count of explored programs that hold each.
    static func patterns(_ programs: [SequenceProgram]) -> [String: Int] {
        var counts: [String: Int] = [:]
        func note(_ name: String, _ holds: Bool) { if holds { counts[name, default: 0] += 1 } }
        for program in programs {
            let ops = program.prefix
            let slots = Set(ops.compactMap(\.slot))
            func on(_ slot: Int, _ kind: String) -> (SequenceOperation) -> Bool {
                { operation in
                    guard operation.slot == slot else { return false }
                    switch (operation, kind) {
                    case (.create, "create"), (.upload, "upload"), (.details, "details"), (.delete, "delete"), (.photo, "photo"): return true
                    default: return false
                    }
                }
            }
            let isList: (SequenceOperation) -> Bool = { if case .list = $0 { return true } else { return false } }
            let isCreate: (SequenceOperation) -> Bool = { if case .create = $0 { return true } else { return false } }
            note("microchip reuse after delete", ops.enumerated().contains { index, operation in
                guard case .create(let slot, .chip(let chip)) = operation else { return false }
                return has(Array(ops[(index + 1)...]), [on(slot, "delete"), { if case .create(_, .chip(chip)) = $0 { return true } else { return false } }])
            })
            note("create after delete", slots.contains { has(ops, [on($0, "delete"), isCreate]) })
            note("details, upload, details", slots.contains { has(ops, [on($0, "details"), on($0, "upload"), on($0, "details")]) })
            note("stale details shows", Self.staleDetailsShows(ops))
            note("soft delete shows", Self.softDeleteShows(ops))
            note("stale list shows", Self.staleListShows(ops))
            note("upload, delete, list", slots.contains { has(ops, [on($0, "upload"), on($0, "delete"), isList]) })
            note("delete, upload", slots.contains { has(ops, [on($0, "delete"), on($0, "upload")]) })
            note("upload, upload", slots.contains { has(ops, [on($0, "upload"), on($0, "upload")]) })
            note("fill of 21, list", has(ops, [{ if case .fill(let count) = $0 { return count >= 21 } else { return false } }, isList]))
            if program.isConcurrent, program.lanes.count >= 2 {
                let lanes = program.lanes
                func atOnce(_ matches: (SequenceOperation) -> Bool) -> [(lane: Int, position: Int)] {
                    var found: [(lane: Int, position: Int)] = []
                    for position in 0..<3 {
                        let here = lanes.indices.filter { position < lanes[$0].count && matches(lanes[$0][position]) }
                        if here.count >= 2 { found += here.map { ($0, position) } }
                    }
                    return found
                }
                let creates = atOnce { if case .create(_, .chip) = $0 { return true } else { return false } }
                note("two clients create with one chip", !creates.isEmpty)
                // Creates that may both be stored (not one microchip number: its uniqueness decides).
                let anyCreates = atOnce { if case .create = $0 { return true } else { return false } }
                let chips = Set(anyCreates.map { lanes[$0.lane][$0.position] }.compactMap { operation -> ChipUse? in
                    if case .create(_, let chip) = operation { return chip } else { return nil }
                })
                note("two clients create, one uses it", (chips.count > 1 || chips.contains(.none)) && anyCreates.contains { lane, position in
                    guard let slot = lanes[lane][position].slot else { return false }
                    return lanes[lane][(position + 1)...].contains { $0.slot == slot }
                })
                let uploads = atOnce { if case .upload = $0 { return true } else { return false } }
                let uploadSlots = Set(uploads.compactMap { lanes[$0.lane][$0.position].slot })
                note("two clients upload, one reads", uploadSlots.count >= 2 && uploads.contains { lane, position in
                    guard let slot = lanes[lane][position].slot else { return false }
                    return lanes[lane][(position + 1)...].contains { if case .photo(slot, _) = $0 { return true } else { return false } }
                })
            }
        }
        return counts
    }

    /// The patterns each planted sequence or concurrency defect needs (an approximation of
    /// timing for the concurrent ones: operations at the same place of their branches).
    static let required = [
        "microchip reuse after delete", "create after delete", "stale details shows", "stale list shows",
        "soft delete shows", "delete, upload", "upload, upload", "fill of 21, list", "two clients create with one chip",
        "two clients create, one uses it", "two clients upload, one reads",
    ]

    @Test("each order a planted defect needs turns up in the programs of every one of 10 seeds")
    func patternsTurnUp() {
        var totals: [String: [Int]] = [:]
        for seed in UInt64(1)...10 {
            let counts = Self.patterns(Self.explored(seed: seed))
            for name in Self.required { totals[name, default: []].append(counts[name] ?? 0) }
        }
        for name in Self.required { print("PATTERN \(name): \(totals[name] ?? [])") }
        for name in Self.required {
            #expect(totals[name]?.allSatisfy { $0 > 0 } == true, "\(name): \(totals[name] ?? []) programs in seeds 1-10")
        }
    }

    @Test("programs are valid: every operation is allowed where it stands, branches name only their own and the prefix's announcements")
    func programsAreValid() {
        for seed in UInt64(1)...10 {
            for program in Self.explored(seed: seed) {
                #expect(Self.isValid(program), "\(program.json.serialized())")
                if program.isConcurrent {
                    #expect((2...3).contains(program.lanes.count))
                    let prefixSlots = Set(program.prefix.compactMap(\.slot))
                    for (lane, operations) in program.lanes.enumerated() {
                        for slot in operations.compactMap(\.slot) where !prefixSlots.contains(slot) {
                            #expect(slot / SequencePlan.laneSlotBase == lane + 1, "lane \(lane) names \(slot)")
                        }
                    }
                }
            }
        }
        let concurrent = Self.explored(seed: 1).filter(\.isConcurrent).count
        #expect(concurrent > 0)
        let sequentialOnly = SequencePlan.programs(maxClients: 1).samples(count: 200, seed: 3).filter(\.isConcurrent).count
        #expect(sequentialOnly == 0, "--concurrency 1: no requests at once")
    }

    @Test("any choices replay as a valid program: drawn ones with choices deleted, changed or cut, and random ones")
    func everyReplayIsValid() throws {
        var random = Xoshiro256StarStar(seed: 29)
        for maxClients in [1, 2, 3] {
            let generator = SequencePlan.drawnPrograms(maxClients: maxClients)
            for index in 0..<300 {
                var testCase = TestCase(random: random.split(), size: index % 101)
                _ = try? generator.draw(&testCase)
                var choices = testCase.choices
                switch index % 4 {
                case 0:
                    let start = Int(random.bounded(by: UInt64(choices.count - 1)))
                    choices.removeSubrange(start..<min(choices.count, start + 1 + Int(random.bounded(by: 7))))
                case 1:
                    for _ in 0...random.bounded(by: 3) { choices[Int(random.bounded(by: UInt64(choices.count - 1)))] = random.bounded(by: 40) }
                case 2: choices = Array(choices.prefix(Int(random.bounded(by: UInt64(choices.count)))))
                default: choices = (0..<random.bounded(by: 80)).map { _ in random.bounded(by: 2) == 0 ? 1 : random.bounded(by: 40) }
                }
                let program = try generator.replay(choices).program
                #expect(Self.isValid(program), "\(choices) -> \(program.json.serialized())")
                #expect(maxClients >= 2 || !program.isConcurrent, "--concurrency \(maxClients): \(program.json.serialized())")
            }
        }
    }
}
