import Foundation
import PetSpotConcurrency
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// A command of `petspot-contracts`: its description, and how it is built from its parsed flags
/// and run.
package protocol RunnerCommand: Sendable {
    /// The command's word, flags and help text.
    static var spec: CommandSpec { get }
    /// The command, from its parsed flags; throws a usage error naming a bad flag.
    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError)
    /// Runs the command; its result is the exit code.
    func run(output: RunnerOutput) async throws -> RunnerExitCode
}
