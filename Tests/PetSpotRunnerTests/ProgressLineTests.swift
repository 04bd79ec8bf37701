import Foundation
import PetSpotConcurrency
import PetSpotRuntime
import PetSpotTestSupport
import Testing

@Suite("the progress line", .onOwnThreads)
struct ProgressLineTests {
    /// A progress line on a clock the test sets, writing into `output`.
    static func line(_ output: CapturedOutput, inPlace: Bool, clock: Locked<Duration>) -> ProgressLine {
        ProgressLine(output: output.runner, label: "run", total: 20, inPlace: inPlace, elapsed: { clock.withLock { $0 } })
    }

    @Test("on a pipe: nothing in the first second, then a line at most every 5 s naming the group under way, and cases once counted")
    func pipe() {
        let output = CapturedOutput()
        let clock = Locked(Duration.zero)
        let progress = Self.line(output, inPlace: false, clock: clock)
        progress.beginGroup("health", number: 1, of: 14)
        for seconds in [0.5, 2, 4.9] {
            clock.withLock { $0 = .seconds(seconds) }
            progress.tick()
        }
        #expect(output.standardError.isEmpty, "\(output.standardError)")
        clock.withLock { $0 = .seconds(5) }
        progress.tick()
        progress.beginGroup("submission", number: 2, of: 14)
        clock.withLock { $0 = .seconds(7) }
        progress.advance(by: 3, failed: 1)
        #expect(output.standardError == "run: group 1/14: health (5 s)\n", "\(output.standardError)")
        clock.withLock { $0 = .seconds(10) }
        progress.tick()
        #expect(output.standardError.split(separator: "\n").last == "run: group 2/14: submission, 3/20 cases, 1 failed, 0.3 cases/s (10 s)")
        progress.finish()
        clock.withLock { $0 = .seconds(60) }
        progress.tick()
        #expect(output.standardError.split(separator: "\n").count == 2, "nothing after finish")
    }

    @Test("on a terminal: redrawn in place at most every 0.1 s, cleared by finish")
    func terminal() {
        let output = CapturedOutput()
        let clock = Locked(Duration.seconds(1))
        let progress = Self.line(output, inPlace: true, clock: clock)
        progress.beginGroup("list", number: 9, of: 14)
        clock.withLock { $0 = .milliseconds(1050) }
        progress.tick()
        clock.withLock { $0 = .milliseconds(1100) }
        progress.tick()
        #expect(output.standardError == "\r\u{1B}[Krun: group 9/14: list (1 s)\r\u{1B}[Krun: group 9/14: list (1 s)", "\(output.standardError)")
        progress.finish()
        #expect(output.standardError.hasSuffix("(1 s)\r\u{1B}[K"))
    }

    /// The ticker redraws a line nobody advances (a group waiting on a slow target). Bounded by
    /// counted polls far above what a loaded machine needs: a hang guard, not a timing claim.
    @Test("with the real clock, a ticker draws the line while nothing advances it")
    func ticker() {
        let output = CapturedOutput()
        let progress = ProgressLine(output: output.runner, label: "run", total: 0, inPlace: true)
        progress.beginGroup("sequences and concurrency", number: 13, of: 14)
        for _ in 0..<6000 {
            if output.standardError.contains("group 13/14: sequences and concurrency") { break }
            usleep(20_000)
        }
        #expect(output.standardError.contains("\r\u{1B}[Krun: group 13/14: sequences and concurrency"), "\(output.standardError)")
        progress.finish()
    }
}
