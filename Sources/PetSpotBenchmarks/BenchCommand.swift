import Foundation
import PetSpotCLI
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts bench`: the shipped benchmarks, one `name: value unit` line each.
///
/// Run from a release build (`swift run -c release petspot-contracts bench`). Every figure is
/// written to standard output as soon as it is measured, flushed, so a pipe sees progress.
package struct BenchCommand: RunnerCommand {
    static let seconds = Option.seconds("--seconds", default: 2, in: 0.05...600, help: "Measuring time of each throughput benchmark.")
    static let filter = Option.text(
        "--filter", value: "GROUP", default: "all",
        help: "Run only the groups whose name contains GROUP (pipeline, shrinking, validator, mock, backend-defects, app-defects, submission-defects, challenge, redaction, releases, latency).")

    package static let spec = CommandSpec(
        name: "bench",
        summary: "Run the shipped benchmarks and print one 'name: value unit' line each.",
        discussion: """
            Groups: pipeline (generate flow inputs, map them to the payload, validate against the create-request \
            schema, single-threaded; also against the stricter client-payload schema), shrinking (time to the \
            minimal counterexample of planted bugs, with the counterexample), validator (a create payload \
            against the compiled create-request and client-payload schemas), mock (create requests per second \
            over loopback keep-alive HTTP with 1, 4 and 16 connections, with latency percentiles), defects \
            (run's backend groups against each planted backend defect of the mock: 'planted backend defects caught K/N'), \
            submission-defects (each planted submission defect of the example adapter under a default check's submission \
            under faults, 10 seeds: caught K/N, the most faults a shrunk scenario shows), \
            challenge (the Shrinking Challenge over 100 seeds: found, minimal, median evaluations and time per \
            challenge), redaction (secrets masked in report text: MB/s), releases (record of the three historic builds \
            and can-i-deploy of them against a local mock, unchanged and serving each planted contract change: times, \
            and the verdicts against the expected matrix), latency (a default run against mock --faults delay=20ms:1 \
            with --concurrency 4 and 8, or PETSPOT_BENCH_CONCURRENCY: seconds against requests x 20 ms / concurrency). Use a release build: debug figures are many times lower.
            """,
        options: [seconds, filter],
        examples: ["swift run -c release petspot-contracts bench", "petspot-contracts bench --filter shrinking"])

    let seconds: Double
    let groups: [Benchmarks.Group]

    package init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let options = try parsed.resolve()
        seconds = try options[Self.seconds]
        let filter = try options[Self.filter]
        groups = Benchmarks.Group.allCases.filter { group in filter.map { group.rawValue.contains($0) } ?? true }
        if groups.isEmpty {
            throw .usage(
                "--filter \(filter ?? ""): no benchmark group matches (groups: "
                    + Benchmarks.Group.allCases.map(\.rawValue).joined(separator: ", ") + ")", command: "bench")
        }
    }

    package func run(output: RunnerOutput) async throws -> RunnerExitCode {
        #if DEBUG
        output.errorLine("petspot-contracts bench: this is a debug build; figures are only meaningful from a release build")
        #endif
        let (groups, seconds) = (self.groups, self.seconds)
        let failure = await runOnDedicatedThread { () -> String? in
            do {
                try Benchmarks.run(groups, seconds: seconds) { output.line($0.description) }
                return nil
            } catch {
                return String(describing: error)
            }
        }
        if let failure { throw RunnerError.configuration("bench: \(failure)", command: "bench") }
        return .success
    }
}
