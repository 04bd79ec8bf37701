import Foundation
import PetSpotJSON
import PetSpotModel
import PetSpotFlowGenerators

/// A real app's flow code behind the adapter protocol (sut-protocol.md), as an oracle.
///
/// How an iOS team writes its adapter (the full guide is `docs/ADAPTERS.md`):
/// add a macOS command-line target to the app project that compiles the app's flow-state,
/// validation and payload-mapping code (no UI); in a loop, read one question line, run a fresh
/// wizard of `flow` with the `inputs` entered as the screens enter them and the question's
/// `context` as the clock, tap Continue on each step, and write one answer line — `blocked`
/// with the first refusing step and its invalid fields, or `submitted` with the exact body the
/// app's API client would POST — flushed at once; exit 0 when standard input closes:
///
/// ```swift
/// while let line = readLine() {
///     let question = try JSONDecoder().decode(Question.self, from: Data(line.utf8))
///     let reply = try JSONSerialization.data(withJSONObject: answer(question))
///     FileHandle.standardOutput.write(reply + Data("\n".utf8))
/// }
/// exit(0)
/// ```
///
/// The adapter is started on the first question. Each distinct case is asked once: answers
/// are cached by case, so the several contracts checked on one case, and the shrinker's
/// repeated candidates, cost one exchange each. Questions carry increasing ids from 1.
///
/// Failure policy: when the adapter exits, times out, answers malformed JSON or another id,
/// that case fails the protocol contract (naming the case and seed), the adapter is stopped
/// and started afresh for the next question, so one crash does not hide every later answer.
/// After ``maxRestarts`` restarts the adapter is considered broken: every further question
/// fails at once with ``AdapterProtocolError/gaveUp(restarts:)``, which keeps a hanging
/// adapter from stretching a run to cases × timeout.
public final class AdapterOracle: FlowOracle, @unchecked Sendable {
    // Unchecked: every mutable member is guarded by `lock`; questions are asked one at a time.
    /// Restarts allowed before the adapter is given up.
    public static let maxRestarts = 3

    /// The command line, run with `/bin/sh -c`.
    public let command: String
    /// Seconds to wait for each answer.
    public let timeout: Double
    private let lock = NSLock()
    private var process: AdapterProcess?
    private var nextId = 1
    private var cache: [FlowCase: FlowExchange] = [:]
    private(set) var restarts = 0
    private var starts = 0
    private var answered = 0
    private var firstFailure: AdapterProtocolError?

    /// An oracle for `command` with a per-answer `timeout` in seconds.
    public init(command: String, timeout: Double) {
        self.command = command
        self.timeout = timeout
    }

    /// `adapter: COMMAND`.
    public var name: String { "adapter: \(command)" }

    /// Questions sent so far.
    public var questionsAsked: Int { lock.withLock { nextId - 1 } }

    /// Times the adapter was restarted after a failure.
    public var restartCount: Int { lock.withLock { restarts } }

    /// The adapter's answer to `flowCase` (cached per case).
    public func answer(_ flowCase: FlowCase) -> FlowExchange {
        lock.withLock {
            if let known = cache[flowCase] { return known }
            let id = nextId
            nextId += 1
            let question = flowCase.question(id: id).serialized()
            let exchange = ask(question, id: id)
            cache[flowCase] = exchange
            return exchange
        }
    }

    private func ask(_ question: String, id: Int) -> FlowExchange {
        if restarts > Self.maxRestarts {
            return FlowExchange(question: question, id: id, result: .failure(.gaveUp(restarts: Self.maxRestarts)), answerLine: nil)
        }
        do {
            let running = try startedProcess()
            let line = try running.ask(question, timeout: timeout)
            do {
                let answer = try AdapterAnswer(line: line, expectedId: id)
                answered += 1
                return FlowExchange(question: question, id: id, result: .success(answer), answerLine: line)
            } catch {
                discardProcess()
                if firstFailure == nil { firstFailure = error }
                return FlowExchange(question: question, id: id, result: .failure(error), answerLine: line)
            }
        } catch {
            if firstFailure == nil { firstFailure = error }
            discardProcess()
            return FlowExchange(question: question, id: id, result: .failure(error), answerLine: nil)
        }
    }

    private func startedProcess() throws(AdapterProtocolError) -> AdapterProcess {
        if let process { return process }
        if starts > 0 { restarts += 1 }
        if restarts > Self.maxRestarts { throw .gaveUp(restarts: Self.maxRestarts) }
        starts += 1
        let started = try AdapterProcess(command: command)
        process = started
        return started
    }

    /// When no question was ever answered and the first attempt ended with exit status 126 or
    /// 127 (the shell could not find or run the command): that status.
    public var commandNotRunnable: Int32? {
        lock.withLock {
            guard answered == 0, case .exited(let status)? = firstFailure, let status, status == 126 || status == 127 else { return nil }
            return status
        }
    }

    private func discardProcess() {
        process?.stop(graceSeconds: 0.05)
        process = nil
    }

    /// Closes the adapter's input and waits for it to exit; returns its exit status, if known.
    @discardableResult
    public func finish() -> Int32? {
        lock.withLock {
            guard let process else { return nil }
            process.stop()
            self.process = nil
            return process.terminationStatus
        }
    }
}
