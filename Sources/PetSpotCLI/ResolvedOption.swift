import Foundation
import PetSpotReport
import PetSpotRunner

/// One option's value once read, and its part of the replay line.
package struct ResolvedOption: Sendable {
    /// The value.
    let value: any Sendable
    /// Its words in the replay line (already shell-quoted), when the rule lets it in.
    let replay: String?
    /// The rule that decides whether ``replay`` is written.
    let rule: ReplayRule
}
