import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// Where an option's value is read: the command it belongs to and the environment (some defaults
/// come from it, e.g. `PETSPOT_ADMIN_TOKEN`, `GITHUB_ACTIONS`).
package struct OptionContext: Sendable {
    /// The command word, for error messages.
    package let command: String
    /// The environment variables.
    package let environment: [String: String]

    /// A usage error about this command.
    package func usage(_ message: String) -> RunnerError { .usage(message, command: command) }
}
