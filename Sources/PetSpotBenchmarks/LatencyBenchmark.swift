import Dispatch
import Foundation
import PetSpotJSON
import PetSpotMockBackend
import PetSpotProcess
import PetSpotRuntime

/// A default `run` against a backend 20 ms away: `petspot-contracts mock --faults delay=20ms:1`
/// started as a child process, and `run` in this process against it, once per `--concurrency`
/// (`PETSPOT_BENCH_CONCURRENCY`, a comma list, default `4,8`). Each row prints the budgeted
/// requests the run sent, its seconds, the latency bound (requests x 20 ms / concurrency), their
/// ratio, and whether the run took at most 1.5 times the bound (issue 29's target).
enum LatencyBenchmark {
    /// The delay the mock adds to every answer, in seconds.
    static let delay = 0.020
    /// How far past its bound a run may go.
    static let allowedRatio = 1.5

    static func run(emit: (BenchmarkFigure) -> Void) throws {
        let levels = (ProcessInfo.processInfo.environment["PETSPOT_BENCH_CONCURRENCY"] ?? "4,8")
            .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { (1...64).contains($0) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let mock = try ChildProcess(executable, ["mock", "--port", "0", "--faults", "delay=20ms:1"], output: .pipe)
        defer { _ = mock.terminate() }
        guard let line = mock.readLine(timeout: 60), let url = line.split(separator: " ").last.map(String.init), url.hasPrefix("http://127.0.0.1:")
        else {
            throw RunnerError.configuration("bench latency: the mock did not say where it listens", command: "bench")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-bench-latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for concurrency in levels {
            let report = directory.appendingPathComponent("run-\(concurrency).json")
            let (seconds, status) = try ReleaseGateBenchmark.tool([
                "run", "--base-url", url, "--admin-token", MockBackend.defaultAdminToken, "--seed", "7", "--concurrency", String(concurrency),
                "--report-json", report.path, "--no-progress", "--quiet",
            ], accepting: [0, 1])
            let requests = try budgetedRequests(in: report)
            let bound = Double(requests) * delay / Double(concurrency)
            let ratio = seconds / bound
            emit(BenchmarkFigure(
                "latency_run_concurrency_\(concurrency)", Benchmarks.format(seconds, decimals: 1),
                "s for \(requests) requests (exit \(status)); bound \(Benchmarks.format(bound, decimals: 1)) s "
                    + "(requests x 20 ms / \(concurrency)), ratio \(Benchmarks.format(ratio, decimals: 2)), "
                    + (ratio <= allowedRatio ? "within" : "NOT within") + " \(Benchmarks.format(allowedRatio, decimals: 1))x"))
        }
    }

    /// The budgeted requests a `run` report's note counts (`N budgeted requests sent`).
    static func budgetedRequests(in report: URL) throws -> Int {
        let json = try JSONValue.parse(Data(contentsOf: report))
        for note in json["notes"]?.arrayValue ?? [] {
            guard let text = note.stringValue, let range = text.range(of: " budgeted requests sent") else { continue }
            if let count = Int(text[..<range.lowerBound].split(separator: " ").last ?? "") { return count }
        }
        throw RunnerError.configuration("bench latency: the run's report counts no budgeted requests", command: "bench")
    }
}
