import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// One option of a command, type-erased: its usage entry, and how it reads its value.
package protocol CommandOption: Sendable {
    /// What the usage text shows.
    var spec: OptionSpec { get }
    /// Reads the option from the values given for it (empty when absent, in order when it repeats).
    /// - Throws: a usage error naming the flag and what is wrong.
    func resolve(_ given: [String], in context: OptionContext) throws(RunnerError) -> ResolvedOption
}
