import Dispatch
import Foundation
import PetSpotConcurrency
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotMockBackend
import PetSpotPlantedDefects
import PetSpotRunner

extension Benchmarks {
    /// `run`'s backend groups against the in-process mock with each planted backend defect, in
    /// each profile it shows in: how many are caught in a group of their surface (`K/N`), the
    /// ones missed, the most requests one run sent, and the seconds it all took.
    static func plantedDefects(emit: (BenchmarkFigure) -> Void) {
        let pairs = PlantedDefectRuns.pairs
        let outcomes = Locked<[PlantedDefectRuns.Outcome]>([])
        let errors = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let started = DispatchTime.now().uptimeNanoseconds
        // Benchmarks run on a dedicated thread (BenchCommand), so waiting here blocks no task.
        Task {
            await forEachConcurrently(pairs.map { PairBox(defect: $0.0, profile: $0.1) }, limit: 2) { pair in
                do {
                    let outcome = try await PlantedDefectRuns.outcome(pair.defect, profile: pair.profile)
                    outcomes.withLock { $0.append(outcome) }
                } catch {
                    errors.withLock { $0.append("\(pair.defect.name) (\(pair.profile.rawValue)): \(error)") }
                }
            }
            finished.signal()
        }
        finished.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let results = outcomes.withLock { $0 }
        let order = Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ("\($0.element.0.name) \($0.element.1.rawValue)", $0.offset) })
        let missed = results.filter { !$0.caught }.sorted {
            (order["\($0.defect.name) \($0.profile.rawValue)"] ?? 0) < (order["\($1.defect.name) \($1.profile.rawValue)"] ?? 0)
        }
        for outcome in missed {
            emit(BenchmarkFigure("planted_defect_missed", "\(outcome.defect.name) (\(outcome.profile.rawValue))", ""))
        }
        for error in errors.withLock({ $0 }) { emit(BenchmarkFigure("planted_defect_run_failed", error, "")) }
        emit(BenchmarkFigure("planted backend defects caught", "\(results.count - missed.count)/\(pairs.count)", ""))
        emit(BenchmarkFigure("planted_defects_max_requests_per_run", String(results.map(\.requestsSent).max() ?? 0), "requests"))
        emit(BenchmarkFigure("planted_defects_time", format(seconds, decimals: 1), "s"))
        let seeds = max(1, Int(ProcessInfo.processInfo.environment["PETSPOT_BENCH_SEEDS"] ?? "") ?? 1)
        listCapDefects(seeds: seeds, emit: emit)
        sequenceDefects(seeds: seeds, emit: emit)
    }

    /// The silent list caps (``MockDefect/listPageSize``) over `seeds` seeds each
    /// (`PETSPOT_BENCH_SEEDS`), in each profile: the list-depth group draws its count from the
    /// seed, so each seed is a run of its own; caught when a group of the list surface fails.
    static func listCapDefects(seeds: Int, emit: (BenchmarkFigure) -> Void) {
        let pairs = PlantedDefectRuns.pairs.filter { $0.0.listPageSize != nil }
        let runs = pairs.flatMap { pair in (1...seeds).map { RunBox(defect: pair.0, profile: pair.1, seed: UInt64($0)) } }
        let outcomes = Locked<[(RunBox, PlantedDefectRuns.Outcome)]>([])
        let finished = DispatchSemaphore(value: 0)
        Task {
            await forEachConcurrently(runs, limit: 2) { run in
                if let outcome = try? await PlantedDefectRuns.outcome(run.defect, profile: run.profile, seed: run.seed) {
                    outcomes.withLock { $0.append((run, outcome)) }
                }
            }
            finished.signal()
        }
        finished.wait()
        let results = outcomes.withLock { $0 }
        for pair in pairs {
            let mine = results.filter { $0.0.defect == pair.0 && $0.0.profile == pair.1 }
            let missed = mine.filter { !$0.1.caught }.map { String($0.0.seed) }
            emit(BenchmarkFigure(
                "list_cap_defect_\(pair.0.name)_\(pair.1.rawValue)", "\(mine.count - missed.count)/\(seeds)",
                "seeds" + (missed.isEmpty ? "" : "; missed with seeds \(missed.joined(separator: ","))")))
        }
        emit(BenchmarkFigure(
            "silent list caps caught", "\(results.filter(\.1.caught).count)/\(runs.count)",
            "runs (\(pairs.count) defect-profile pairs x \(seeds) seeds)"))
    }

    /// The sequence and concurrency defects over `seeds` seeds each (`PETSPOT_BENCH_SEEDS`),
    /// in each profile: caught by the stateful group with a failing sequence shrunk to at most
    /// ``PlantedDefectRuns/maxShrunkOperations`` operations in every run, and the most operations seen.
    static func sequenceDefects(seeds: Int, emit: (BenchmarkFigure) -> Void) {
        let pairs = PlantedDefectRuns.pairs.filter { [.sequences, .concurrency].contains($0.0.surface) }
        let runs = pairs.flatMap { pair in (1...seeds).map { RunBox(defect: pair.0, profile: pair.1, seed: UInt64($0)) } }
        let outcomes = Locked<[(RunBox, PlantedDefectRuns.Outcome)]>([])
        let finished = DispatchSemaphore(value: 0)
        let started = DispatchTime.now().uptimeNanoseconds
        Task {
            await forEachConcurrently(runs, limit: 2) { run in
                if let outcome = try? await PlantedDefectRuns.outcome(run.defect, profile: run.profile, seed: run.seed) {
                    outcomes.withLock { $0.append((run, outcome)) }
                }
            }
            finished.signal()
        }
        finished.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let results = outcomes.withLock { $0 }
        func good(_ outcome: PlantedDefectRuns.Outcome) -> Bool {
            outcome.caught && outcome.hasShortSequence
        }
        for pair in pairs {
            let mine = results.filter { $0.0.defect == pair.0 && $0.0.profile == pair.1 }
            let caught = mine.filter { good($0.1) }
            let longest = mine.compactMap { $0.1.sequenceOperations.min() }.max() ?? 0
            let failedSeeds = mine.filter { !good($0.1) }.map { String($0.0.seed) }
            emit(BenchmarkFigure(
                "sequence_defect_\(pair.0.name)_\(pair.1.rawValue)", "\(caught.count)/\(seeds)",
                "seeds; shrunk to at most \(longest) operations" + (failedSeeds.isEmpty ? "" : "; missed with seeds \(failedSeeds.joined(separator: ","))")))
        }
        let caught = results.filter { good($0.1) }.count
        let longest = results.compactMap { $0.1.sequenceOperations.min() }.max() ?? 0
        emit(BenchmarkFigure(
            "sequence and concurrency defects caught", "\(caught)/\(runs.count)",
            "runs (\(pairs.count) defect-profile pairs x \(seeds) seeds), each with a sequence of at most \(PlantedDefectRuns.maxShrunkOperations) operations; longest \(longest)"))
        emit(BenchmarkFigure("sequence_defects_max_requests_per_run", String(results.map(\.1.requestsSent).max() ?? 0), "requests"))
        emit(BenchmarkFigure("sequence_defects_time", format(seconds, decimals: 1), "s"))
    }

    /// One run of the sequence benchmark handed to a task.
    private struct RunBox: Sendable {
        let defect: MockDefect
        let profile: BackendProfile
        let seed: UInt64
    }

    /// A (defect, profile) pair handed to a task.
    private struct PairBox: Sendable {
        let defect: MockDefect
        let profile: BackendProfile
    }
}
