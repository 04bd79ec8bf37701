import Foundation
import PetSpotConcurrency
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
public final class AdapterOracle: FlowOracle, Sendable {
    /// Restarts allowed before the adapter is given up.
    public static let maxRestarts = 3

    /// The command line, run with `/bin/sh -c`.
    let command: String
    /// Seconds to wait for each answer.
    let timeout: Double

    /// Everything that changes, behind one lock; questions are asked one at a time.
    private struct State {
        var process: AdapterProcess?
        var nextId = 1
        var cache: [FlowCase: FlowExchange] = [:]
        var restarts = 0
        var starts = 0
        var answered = 0
        var firstFailure: AdapterProtocolError?
    }

    private let state = Locked(State())

    /// Where each line of the adapter's standard error goes (escaped, prefixed `adapter: `).
    private let relayError: @Sendable (String) -> Void

    /// An oracle for `command` with a per-answer `timeout` in seconds; the adapter's standard
    /// error goes to ours, or to `relayError` (`check` passes its output, so a captured run
    /// captures it too).
    public init(command: String, timeout: Double, relayError: (@Sendable (String) -> Void)? = nil) {
        self.command = command
        self.timeout = timeout
        self.relayError = relayError ?? AdapterProcess.writeErrorLine
    }

    /// `adapter: COMMAND`.
    public var name: String { "adapter: \(command)" }

    /// Questions sent so far.
    public var questionsAsked: Int { state.withLock { $0.nextId - 1 } }

    /// Questions answered properly so far.
    public var answeredCount: Int { state.withLock { $0.answered } }

    /// Times the adapter was restarted after a failure.
    public var restartCount: Int { state.withLock { $0.restarts } }

    /// The adapter's answer to `flowCase` (cached per case).
    public func answer(_ flowCase: FlowCase) -> FlowExchange {
        state.withLock { state in
            if let known = state.cache[flowCase] { return known }
            let id = state.nextId
            state.nextId += 1
            let question = flowCase.question(id: id).serialized()
            let exchange = ask(question, id: id, state: &state)
            state.cache[flowCase] = exchange
            return exchange
        }
    }

    private func ask(_ question: String, id: Int, state: inout State) -> FlowExchange {
        let line: String
        switch askLine(question, state: &state) {
        case .failure(let error): return FlowExchange(question: question, id: id, result: .failure(error), answerLine: nil)
        case .success(let answered): line = answered
        }
        do {
            let answer = try AdapterAnswer(line: line, expectedId: id)
            state.answered += 1
            return FlowExchange(question: question, id: id, result: .success(answer), answerLine: line)
        } catch {
            discardProcess(&state)
            if state.firstFailure == nil { state.firstFailure = error }
            return FlowExchange(question: question, id: id, result: .failure(error), answerLine: line)
        }
    }

    /// Writes `question` and reads one answer line, starting (or restarting) the adapter as
    /// needed; a failure discards the process, so the next question starts a fresh one.
    private func askLine(_ question: String, state: inout State) -> Result<String, AdapterProtocolError> {
        if state.restarts > Self.maxRestarts { return .failure(.gaveUp(restarts: Self.maxRestarts)) }
        do {
            let running = try startedProcess(&state)
            return .success(try running.ask(question, timeout: timeout))
        } catch {
            if state.firstFailure == nil { state.firstFailure = error }
            discardProcess(&state)
            return .failure(error)
        }
    }

    /// Asks one question of protocol version 2 (a report's `submit`, `tryAgain` or `cancel`),
    /// made by `question` from its id, and decodes the answer with `decode` (given the line and
    /// the id). Ids continue the oracle's sequence; failures follow the same restart policy.
    /// - Returns: the question line, the answer line if any, and the decoded answer or why there
    ///   is none.
    package func askSubmission<Answer>(
        _ question: (Int) -> JSONValue, decode: (String, Int) throws(AdapterProtocolError) -> Answer
    ) -> (question: String, answerLine: String?, answer: Result<Answer, AdapterProtocolError>) {
        state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            let text = question(id).serialized()
            switch askLine(text, state: &state) {
            case .failure(let error): return (text, nil, .failure(error))
            case .success(let line):
                do throws(AdapterProtocolError) {
                    let answer = try decode(line, id)
                    state.answered += 1
                    return (text, line, .success(answer))
                } catch {
                    discardProcess(&state)
                    return (text, line, .failure(error))
                }
            }
        }
    }

    private func startedProcess(_ state: inout State) throws(AdapterProtocolError) -> AdapterProcess {
        if let process = state.process { return process }
        if state.starts > 0 { state.restarts += 1 }
        if state.restarts > Self.maxRestarts { throw .gaveUp(restarts: Self.maxRestarts) }
        state.starts += 1
        let started = try AdapterProcess(command: command, relayError: relayError)
        state.process = started
        return started
    }

    /// When no question was ever answered and the first attempt ended with exit status 126 or
    /// 127 (the shell could not find or run the command): that status.
    var commandNotRunnable: Int32? {
        state.withLock { state in
            guard state.answered == 0, case .exited(let status)? = state.firstFailure, let status, status == 126 || status == 127 else {
                return nil
            }
            return status
        }
    }

    private func discardProcess(_ state: inout State) {
        state.process?.stop(graceSeconds: 0.05)
        state.process = nil
    }

    /// Closes the adapter's input and waits for it to exit; returns its exit status, if known.
    @discardableResult
    public func finish() -> Int32? {
        state.withLock { state in
            guard let process = state.process else { return nil }
            process.stop()
            state.process = nil
            return process.terminationStatus
        }
    }
}
