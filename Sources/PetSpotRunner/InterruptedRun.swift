import PetSpotReport
import PetSpotRuntime

/// The contract a command stopped by SIGINT or SIGTERM fails, whatever it checked before: the
/// report of an interrupted command says FAILED in every form (console, JSON, JUnit, HTML), as its
/// exit code (130 or 143) does, so that no report of a run cut short reads as a pass.
package enum InterruptedRun {
    /// The group of the contract.
    package static let group = "interruption"
    /// The contract, declared only when a signal stopped the command.
    package static let contract = "the command runs to its end (no SIGINT or SIGTERM stops it)"

    /// Declares and fails ``contract``: `signal` stopped the command, leaving `unchecked`.
    package static func record(
        _ signal: Int32, unchecked: String, in recorder: ContractRecorder, seed: UInt64?, replay: String?
    ) {
        let name = SignalTrap.name(signal)
        recorder.declare(group: group, contract: contract)
        recorder.fail(group: group, contract: contract, ContractFailure(
            message: "\(name) stopped the command: \(unchecked); a run stopped early never passes, whatever it checked before it",
            expected: "every contract asked for is checked", actual: "stopped by \(name)", seed: seed, replay: replay))
    }
}
