import Dispatch
import Foundation
import PetSpotCLI
import PetSpotConcurrency
import PetSpotJSON
import PetSpotMockBackend
import PetSpotPlantedDefects
import PetSpotRuntime

/// The release gate's benchmark: `record` of each historic build through the adapter
/// (``HistoricBuilds``, `--release NAME`), then `can-i-deploy` of the three releases against a
/// local `mock` over HTTP, unchanged and serving each planted contract change: the time of each,
/// and each change's verdicts against the expected matrix (`matrix_agrees K/N`, the rows that
/// differ named).
///
/// The adapter is found as ``DefectBenchmark`` finds it (`PETSPOT_BENCH_ADAPTER`, else the example
/// adapter beside this executable).
enum ReleaseGateBenchmark {
    static func run(emit: (BenchmarkFigure) -> Void) throws {
        guard let adapter = DefectBenchmark.adapterCommand(environment: ProcessInfo.processInfo.environment) else {
            throw RunnerError.configuration(
                "bench releases: no adapter found (build petspot-example-adapter, or set PETSPOT_BENCH_ADAPTER)", command: "bench")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-bench-releases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        for name in HistoricBuilds.names {
            let out = directory.appendingPathComponent("\(name).json").path
            let (seconds, _) = try tool(["record", "--sut", "\(adapter) --release \(name)", "--release", name, "--out", out, "--no-progress"])
            let bytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
            emit(BenchmarkFigure("record_release_\(name)", Benchmarks.format(seconds, decimals: 2), "s (\(bytes) bytes)"))
        }

        var agreeing = 0
        var differing: [String] = []
        for change in [HistoricBuilds.unchanged] + MockChange.allCases.map(\.name) {
            let changes: Set<MockChange> = MockChange(rawValue: change).map { [$0] } ?? []
            let (seconds, verdicts) = try canIDeploy(directory, changes: changes)
            let row = HistoricBuilds.names.map { "\($0) \(verdicts[$0] ?? "?")" }.joined(separator: ", ")
            if change == HistoricBuilds.unchanged {
                emit(BenchmarkFigure("can_i_deploy_3_releases", Benchmarks.format(seconds, decimals: 2), "s against the unchanged mock over HTTP (\(row))"))
            }
            if let expected = HistoricBuilds.expected[change], expected == verdicts {
                agreeing += 1
            } else {
                differing.append("\(change): \(row)")
            }
            emit(BenchmarkFigure("release_matrix_\(change)", row, "(\(Benchmarks.format(seconds, decimals: 2)) s)"))
        }
        let total = 1 + MockChange.allCases.count
        emit(BenchmarkFigure(
            "release_matrix_agrees", "\(agreeing)/\(total)",
            differing.isEmpty ? "rows as expected" : "rows; differing: " + differing.joined(separator: "; ")))
    }

    /// `can-i-deploy` of the releases in `directory` against a `mock` on a free port of this
    /// machine serving `changes`: its time and each release's verdict.
    static func canIDeploy(_ directory: URL, changes: Set<MockChange>) throws -> (seconds: Double, verdicts: [String: String]) {
        var options = MockServerOptions(port: 0)
        options.changes = changes
        let server = MockHTTPServer(options: options)
        let port = try server.start()
        defer { server.stop() }
        let report = directory.appendingPathComponent("can-i-deploy.json")
        defer { try? FileManager.default.removeItem(at: report) }
        let (seconds, _) = try tool([
            "can-i-deploy", "--base-url", "http://127.0.0.1:\(port)", "--releases", directory.path,
            "--admin-token", MockBackend.defaultAdminToken, "--no-progress", "--quiet", "--report-json", report.path,
        ], accepting: [0, 1])
        var verdicts: [String: String] = [:]
        let json = try JSONValue.parse(Data(contentsOf: report))
        for release in json["releases"]?.arrayValue ?? [] {
            if let name = release["name"]?.stringValue { verdicts[name] = release["verdict"]?.stringValue }
        }
        return (seconds, verdicts)
    }

    /// Runs `petspot-contracts` with `arguments` in this process: its time and exit code; a code
    /// outside `accepting` throws with what it wrote on standard error.
    static func tool(_ arguments: [String], accepting: Set<Int32> = [0]) throws -> (seconds: Double, status: Int32) {
        let errors = Locked("")
        let output = RunnerOutput(writingOut: { _ in }, writingError: { line in errors.withLock { $0 += line } })
        let started = DispatchTime.now().uptimeNanoseconds
        let status = blockingAwait { await PetSpotContractsTool.run(arguments: arguments, output: output) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard accepting.contains(status) else {
            throw RunnerError.configuration(
                "bench releases: petspot-contracts \(arguments.prefix(1).joined()) exited \(status): \(errors.withLock { $0 })", command: "bench")
        }
        return (seconds, status)
    }
}
