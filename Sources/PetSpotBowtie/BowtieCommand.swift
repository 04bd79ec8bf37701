import PetSpotCLI
import PetSpotRuntime

/// `petspot-contracts bowtie`: the validator behind Bowtie's harness protocol.
package struct BowtieCommand: RunnerCommand {
    package static let spec = CommandSpec(
        name: "bowtie", operands: "< requests > replies",
        summary: "Speak Bowtie's JSON Schema harness protocol on standard input and output.",
        discussion: "One JSON request per input line (start, dialect, run, stop), one reply per line, flushed.",
        options: [], examples: ["bowtie run -i localhost/petspot-contracts ... (see Bowtie's documentation)", "echo '{\"cmd\":\"start\",\"version\":1}' | petspot-contracts bowtie"])

    package init(_ parsed: ParsedArguments, arguments: [String]) {}

    package func run(output: RunnerOutput) async throws -> RunnerExitCode {
        await runOnDedicatedThread { BowtieHarness.runOnStandardStreams() }
        return .success
    }
}
