import PetSpotConcurrency
import PetSpotRuntime

/// What a command prints, collected in memory: pass ``runner`` to the command, then read
/// ``standardOutput`` and ``standardError``.
final class CapturedOutput: Sendable {
    /// Everything written so far to each stream.
    private let captured = Locked((out: "", error: ""))
    /// The output to hand to the command.
    let runner: RunnerOutput

    init() {
        let captured = self.captured
        runner = RunnerOutput(
            writingOut: { text in captured.withLock { $0.out += text } },
            writingError: { text in captured.withLock { $0.error += text } })
    }

    /// Everything written to standard output.
    var standardOutput: String { captured.withLock { $0.out } }
    /// Everything written to standard error.
    var standardError: String { captured.withLock { $0.error } }
}
