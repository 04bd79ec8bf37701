import Dispatch
import Foundation
import PetSpotAdapterDriving
import PetSpotContractGroups
import PetSpotPlantedDefects
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The submission mutation benchmark: each planted submission defect of the adapter
/// (`--list-defects` rows of field `submission`, whose third column names the property it
/// breaks) under the submission under faults of a default `check --sut`, over several seeds:
/// caught when that property fails, with the most faults a failure's shrunk scenario shows. The
/// unbroken adapter runs too: it must pass every seed, and a Try Again must send again a report of
/// every input class in every seed (the group's summary counts them).
///
/// The adapter is found as ``DefectBenchmark`` finds it (`PETSPOT_BENCH_ADAPTER`, else the example
/// adapter beside this executable); `PETSPOT_BENCH_SEEDS` sets the seeds (default 10);
/// `PETSPOT_BENCH_DEFECTS=name,name` runs only those defects. The protocol break
/// `timeout-in-milliseconds` (an app that gives up long before its time-out: the judged contract
/// or the property time-out catches it) runs with the listed defects; `ignore-request-timeout`
/// (caught by the property time-out) only when `PETSPOT_BENCH_DEFECTS` names it: each of its held
/// answers costs the hold's limit, 10.3 s.
enum SubmissionDefectBenchmark {
    /// One planted submission defect: its name and what catches it.
    struct Defect: Sendable {
        let name: String
        /// What catches it, any of them: the short id of the property it breaks (the third column
        /// of `--list-defects`), or ``SubmissionFaultRun/judged``.
        let caughtBy: [String]
    }

    /// The submission defects `command --list-defects` prints.
    static func defects(of command: String) throws -> [Defect] {
        try DefectBenchmark.listed(by: command).compactMap { columns in
            columns.count >= 3 && columns[1] == "submission" ? Defect(name: columns[0], caughtBy: [columns[2]]) : nil
        }
    }

    /// Protocol breaks run with the listed defects.
    /// (The judged contract catches an app that gives up before loopback answers come; the
    /// property time-out one that gives up on a held answer long before its time-out.)
    static let protocolBreaks = [Defect(name: "timeout-in-milliseconds", caughtBy: [SubmissionFaultRun.judged, "time-out"])]
    /// Protocol breaks run only when `PETSPOT_BENCH_DEFECTS` names them.
    static let slowProtocolBreaks = [Defect(name: "ignore-request-timeout", caughtBy: ["time-out"])]

    /// The input classes a retry met, `(met, of)`, read off the group's summary.
    static func retriedClasses(_ report: ContractReport) -> (met: Int, of: Int)? {
        let summary = report.groups.first { $0.name == SubmissionSettings.groupName }?.summary ?? ""
        guard let match = summary.firstMatch(of: /input classes sent again after a failure: (\d+) of (\d+)/),
            let met = Int(match.output.1), let of = Int(match.output.2)
        else { return nil }
        return (met, of)
    }

    static func run(emit: (BenchmarkFigure) -> Void) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let command = DefectBenchmark.adapterCommand(environment: environment) else {
            throw RunnerError.configuration(
                "bench submission-defects: no adapter found (build petspot-example-adapter, or set PETSPOT_BENCH_ADAPTER)", command: "bench")
        }
        let only = Set((environment["PETSPOT_BENCH_DEFECTS"] ?? "").split(separator: ",").map(String.init))
        let defects = try (defects(of: command) + protocolBreaks).filter { only.isEmpty || only.contains($0.name) }
            + slowProtocolBreaks.filter { only.contains($0.name) }
        let seeds = max(1, Int(environment["PETSPOT_BENCH_SEEDS"] ?? "") ?? 10)
        func runOnce(_ adapter: String, seed: Int) -> (failed: Set<String>, faults: Int, seconds: Double, classes: (met: Int, of: Int)?) {
            let started = DispatchTime.now().uptimeNanoseconds
            let oracle = AdapterOracle(command: adapter, timeout: 5)
            let report = blockingAwait { try? await SubmissionFaultRun.report(oracle: oracle, seed: UInt64(seed)) }
            oracle.finish()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            guard let report else { return ([], 0, seconds, nil) }
            return (SubmissionFaultRun.failedContracts(report), SubmissionFaultRun.mostFaultsShown(report), seconds, retriedClasses(report))
        }
        var passing = 0, everyClass = 0
        var times: [Double] = []
        for seed in 1...seeds {
            let outcome = runOnce(command, seed: seed)
            times.append(outcome.seconds)
            if outcome.failed.isEmpty { passing += 1 }
            if let classes = outcome.classes, classes.met == classes.of { everyClass += 1 }
        }
        emit(BenchmarkFigure(
            "submission_unbroken_adapter_passes", "\(passing)/\(seeds)",
            "seeds, median \(Benchmarks.format(DefectBenchmark.median(times), decimals: 2)) s per run"))
        emit(BenchmarkFigure(
            "submission_every_input_class_retried", "\(everyClass)/\(seeds)",
            "seeds in which a Try Again sent again a report of every input class"))
        var caught = 0, runs = 0, mostFaults = 0
        var missed: [String] = []
        for defect in defects {
            var caughtSeeds = 0, faults = 0
            var defectTimes: [Double] = []
            for seed in 1...seeds {
                let outcome = runOnce("\(command) --break \(defect.name)", seed: seed)
                runs += 1
                defectTimes.append(outcome.seconds)
                if defect.caughtBy.contains(where: { SubmissionFaultRun.contract(caughtBy: $0).map(outcome.failed.contains) == true }) {
                    caught += 1
                    caughtSeeds += 1
                    faults = max(faults, outcome.faults)
                } else {
                    missed.append("\(defect.name) (seed \(seed))")
                }
            }
            mostFaults = max(mostFaults, faults)
            emit(BenchmarkFigure(
                "submission_defect_\(defect.name)_caught", "\(caughtSeeds)/\(seeds)",
                "seeds (\(defect.caughtBy.joined(separator: " or "))), at most \(faults) fault(s) shown, median \(Benchmarks.format(DefectBenchmark.median(defectTimes), decimals: 2)) s"))
        }
        emit(BenchmarkFigure("planted_submission_defects_caught", "\(caught)/\(runs)", "runs (\(defects.count) defects x \(seeds) seeds)"))
        emit(BenchmarkFigure("planted_submission_defects_most_faults_shown", String(mostFaults), "faults in a shrunk scenario"))
        emit(BenchmarkFigure("planted_submission_defects_missed", missed.isEmpty ? "none" : missed.joined(separator: ", "), ""))
    }
}
