// petspot-contracts: the contract runner's command line. The runner library brings `check`,
// `run`, `mock` and `openapi`; the benchmark and Bowtie targets bring `bench` and `bowtie`.
import Foundation
import PetSpotBenchmarks
import PetSpotBowtie
import PetSpotCLI

let commands: [any RunnerCommand.Type] = PetSpotContractsTool.libraryCommands + [BenchCommand.self, BowtieCommand.self]
let status = await PetSpotContractsTool.run(
    arguments: Array(CommandLine.arguments.dropFirst()), output: .standard(), commands: commands)
exit(status)
