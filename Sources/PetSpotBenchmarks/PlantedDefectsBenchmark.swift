import Dispatch
import Foundation
import PetSpotConcurrency
import PetSpotContractKit
import PetSpotMockBackend
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
    }

    /// A (defect, profile) pair handed to a task.
    private struct PairBox: Sendable {
        let defect: MockDefect
        let profile: BackendProfile
    }
}
