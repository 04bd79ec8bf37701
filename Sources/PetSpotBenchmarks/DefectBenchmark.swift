import Foundation
import Dispatch
import PetSpotAdapterDriving
import PetSpotFlowChecks
import PetSpotProcess
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The mutation benchmark: planted app defects caught by a default `check --sut`, and how soon.
///
/// Each defect the adapter lists (`ADAPTER --list-defects`: name, field, ...) is planted alone
/// (`ADAPTER --break NAME`) and the flow contracts of `check` run against it with their defaults
/// (coverage of the boundary catalogue decides the case count, the default budget and shrink
/// time). A defect is *caught* when the run reports a cause of failure naming the defect's
/// field. The time to the first failure runs from the start of the run (the adapter's start
/// included) to the first failing answer.
///
/// The adapter is the example adapter beside the running executable, or the command line in
/// `PETSPOT_BENCH_ADAPTER` (a Python adapter with the same `--list-defects` and `--break`, for
/// example); `PETSPOT_BENCH_SEEDS` runs every defect with that many seeds (1 to N, default 1);
/// `PETSPOT_BENCH_DEFECTS=name,name` runs only those defects.
enum DefectBenchmark {
    /// One planted defect as the adapter lists it.
    struct Defect: Sendable {
        let name: String
        let field: String
    }

    /// The adapter command line: `PETSPOT_BENCH_ADAPTER`, else the example adapter beside this executable.
    static func adapterCommand(environment: [String: String]) -> String? {
        if let command = environment["PETSPOT_BENCH_ADAPTER"], !command.isEmpty { return command }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("petspot-example-adapter")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside.path : nil
    }

    /// Every row `command --list-defects` prints, `name<TAB>field<TAB>class<TAB>summary`, split.
    static func listed(by command: String) throws -> [[String]] {
        let listing = try ChildProcess.run("/bin/sh", ["-c", command + " --list-defects"])
        return listing.outputText.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    }

    /// The flow defects `command --list-defects` prints (the submission defects, field
    /// `submission`, are left out: the flow contracts cannot see them).
    static func defects(of command: String) throws -> [Defect] {
        try listed(by: command).compactMap { columns in
            columns.count >= 2 && columns[1] != "submission" ? Defect(name: columns[0], field: columns[1]) : nil
        }
    }

    static func run(emit: (BenchmarkFigure) -> Void) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let command = adapterCommand(environment: environment) else {
            throw RunnerError.configuration(
                "bench defects: no adapter found (build petspot-example-adapter, or set PETSPOT_BENCH_ADAPTER)", command: "bench")
        }
        let only = Set((environment["PETSPOT_BENCH_DEFECTS"] ?? "").split(separator: ",").map(String.init))
        let defects = try defects(of: command).filter { only.isEmpty || only.contains($0.name) }
        guard !defects.isEmpty else {
            throw RunnerError.configuration("bench defects: '\(command) --list-defects' listed no defect", command: "bench")
        }
        let seeds = max(1, Int(environment["PETSPOT_BENCH_SEEDS"] ?? "") ?? 1)
        let schemas = try ContractSchemas.shared()
        var caught = 0, runs = 0
        var firstFailures: [Double] = []
        var totals: [Double] = []
        var missed: [String] = []
        for defect in defects {
            var caughtSeeds = 0
            var slowest = 0.0
            for seed in 1...seeds {
                let oracle = AdapterOracle(command: "\(command) --break \(defect.name)", timeout: 5)
                let contracts = FlowContracts(
                    oracle: oracle, validators: schemas.payloadValidators, cases: 200, seed: UInt64(seed), shrinkSeconds: 5,
                    replay: "bench")
                let started = DispatchTime.now().uptimeNanoseconds
                let outcome = contracts.run(group: "flow answers", recorder: ContractRecorder(), progress: nil)
                totals.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                oracle.finish()
                runs += 1
                if outcome.causes.contains(where: { $0.fields.contains(defect.field) }) {
                    caught += 1
                    caughtSeeds += 1
                    if let seconds = outcome.firstFailureSeconds {
                        firstFailures.append(seconds)
                        slowest = max(slowest, seconds)
                    }
                } else {
                    missed.append("\(defect.name) (seed \(seed))")
                }
            }
            emit(BenchmarkFigure(
                "defect_\(defect.name)_caught", "\(caughtSeeds)/\(seeds)", "seeds, first failure after at most \(Benchmarks.format(slowest, decimals: 3)) s"))
        }
        emit(BenchmarkFigure("planted_defects_caught", "\(caught)/\(runs)", "runs (\(defects.count) defects x \(seeds) seeds)"))
        emit(BenchmarkFigure("planted_defects_missed", missed.isEmpty ? "none" : missed.joined(separator: ", "), ""))
        emit(BenchmarkFigure("time_to_first_failure_median", Benchmarks.format(median(firstFailures), decimals: 3), "s"))
        emit(BenchmarkFigure("time_to_first_failure_max", Benchmarks.format(firstFailures.max() ?? 0, decimals: 3), "s"))
        emit(BenchmarkFigure("check_flow_run_median", Benchmarks.format(median(totals), decimals: 3), "s (exploring and shrinking)"))
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
