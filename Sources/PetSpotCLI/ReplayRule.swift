import Foundation
import PetSpotReport
import PetSpotRunner

/// When an option is written into the line that replays a run.
package enum ReplayRule: Sendable {
    /// Never (it does not change what the run checks).
    case never
    /// Always, with its value (also its default, so a later default change cannot alter a replay).
    case always
    /// When given on the command line.
    case whenGiven
    /// When the option named here was given (`--sut-timeout` goes with `--sut`).
    case alongside(String)
}
