import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The options several commands share.
package enum CommonOptions {
    /// `--seed S`: a decimal or `0x`-hexadecimal 64-bit number; a fresh random one when absent
    /// (printed in the replay line, so every run can be replayed).
    package static let seed = Option<UInt64>(
        OptionSpec("--seed", value: "S", default: "random, printed", help: "Seed of the run (decimal or 0x-hex); replays a run."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return RunnerSeed.random() }
            guard let seed = RunnerSeed.parse(text) else {
                throw context.usage("invalid value '\(text)' for --seed: expected a decimal or 0x-hexadecimal 64-bit number")
            }
            return seed
        }, words: { "--seed \($0)" })

    /// `--no-progress`, for the commands with a live progress line.
    package static let noProgress = Option.flag("--no-progress", help: "Do not write the live progress line on standard error.")
}
