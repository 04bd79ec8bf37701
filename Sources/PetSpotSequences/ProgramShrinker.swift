import Foundation
import PetSpotConcurrency
import PetSpotJSON
import PetSpotPropertyEngine

/// Shrinks a failing program on its operations (quickcheck-state-machine's way with a command
/// list): greedy, a candidate at a time, keeping the first that still breaks the contract and
/// starting over from it, until no candidate does (the program is then 1-minimal: no single
/// operation can go) or the allowance is spent. Candidates, in order: cut everything after the
/// failing step; drop a client's branch (three or more); remove one operation, the last first,
/// leaving out what then names an announcement no create made; halve a fill or take one
/// announcement off it; send a create without its microchip number; list around the centre
/// instead of unfiltered. A candidate already tried is not run again.
struct ProgramShrinker {
    /// What running a candidate came to.
    enum Attempt {
        /// It broke the same contract.
        case failed(ProgramFailure)
        /// It did not.
        case passed
        /// The allowance is spent: shrinking stops.
        case spent
    }

    /// The contract a candidate must break.
    let contract: SequenceContract
    /// Runs a candidate.
    let attempt: (SequenceProgram) -> Attempt

    /// The shrunk program, its failure, the candidates kept and run, and whether the allowance ended it.
    func shrink(_ program: SequenceProgram, failure: ProgramFailure) -> (
        program: SequenceProgram, failure: ProgramFailure, steps: Int, replays: Int, spent: Bool
    ) {
        var best = program, bestFailure = failure
        var tried: Set<SequenceProgram> = [program]
        var steps = 0, replays = 0
        var improved = true
        while improved {
            improved = false
            for candidate in candidates(best, failure: bestFailure) where tried.insert(candidate).inserted {
                replays += 1
                switch attempt(candidate) {
                case .failed(let failure):
                    best = candidate
                    bestFailure = failure
                    steps += 1
                    improved = true
                case .passed:
                    continue
                case .spent:
                    return (best, bestFailure, steps, replays, true)
                }
                break
            }
        }
        return (best, bestFailure, steps, replays, false)
    }

    /// The candidates smaller or simpler than `program`, most promising first.
    func candidates(_ program: SequenceProgram, failure: ProgramFailure) -> [SequenceProgram] {
        var candidates: [SequenceProgram] = []
        func add(_ candidate: SequenceProgram) {
            let normalized = candidate.normalized()
            if normalized != program && !normalized.operations.isEmpty && !candidates.contains(normalized) { candidates.append(normalized) }
        }
        // Nothing after a failing step of the prefix matters.
        // (A failure that is not concurrent ran the operations one after another, lanes included.)
        if !failure.concurrent, failure.failingIndex + 1 < program.operationCount {
            add(SequenceProgram(prefix: Array(program.operations.prefix(failure.failingIndex + 1)), lanes: []))
        }
        if program.lanes.count > 2 {
            for lane in program.lanes.indices.reversed() {
                var lanes = program.lanes
                lanes.remove(at: lane)
                add(SequenceProgram(prefix: program.prefix, lanes: lanes))
            }
        }
        // One operation less, the last first.
        for lane in program.lanes.indices.reversed() {
            for index in program.lanes[lane].indices.reversed() {
                var lanes = program.lanes
                lanes[lane].remove(at: index)
                add(SequenceProgram(prefix: program.prefix, lanes: lanes.filter { !$0.isEmpty }))
            }
        }
        for index in program.prefix.indices.reversed() {
            var prefix = program.prefix
            prefix.remove(at: index)
            add(SequenceProgram(prefix: prefix, lanes: program.lanes))
        }
        // Simpler operations.
        func simplified(_ transform: (SequenceOperation) -> SequenceOperation?) {
            for lane in -1..<program.lanes.count {
                let operations = lane < 0 ? program.prefix : program.lanes[lane]
                for index in operations.indices {
                    guard let simpler = transform(operations[index]) else { continue }
                    var copy = program
                    if lane < 0 { copy.prefix[index] = simpler } else { copy.lanes[lane][index] = simpler }
                    add(copy)
                }
            }
        }
        simplified { if case .fill(let count) = $0, count > 1 { return .fill(count: max(1, count / 2)) } else { return nil } }
        simplified { if case .fill(let count) = $0, count > 1 { return .fill(count: count - 1) } else { return nil } }
        simplified { if case .create(let slot, .chip) = $0 { return .create(slot: slot, chip: .none) } else { return nil } }
        simplified { if case .list(near: false) = $0 { return .list(near: true) } else { return nil } }
        return candidates
    }
}
