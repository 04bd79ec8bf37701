import Foundation
import PetSpotConcurrency
import PetSpotFlowChecks
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
public final class AdapterOracle: SetupCheckedOracle, Sendable {
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
        /// Answer lines received, well-formed or not.
        var lines = 0
        /// Set when the adapter never answered: every later question fails at once.
        var setupFailure: AdapterSetupFailure?
        /// What the adapter wrote on standard error while it was asked the last question that
        /// failed.
        var failedQuestionErrors = StandardErrorExcerpt()
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
        if let failure = firstAnswerSetupFailure(line, state: &state) {
            return FlowExchange(question: question, id: id, result: .failure(failure), answerLine: line)
        }
        do throws(AdapterProtocolError) {
            // `cat` as --sut answers every question with itself: say so rather than name a key.
            if line == question { throw .malformedAnswer(Self.echoedQuestion) }
            let answer = try AdapterAnswer(line: line, expectedId: id)
            state.answered += 1
            return FlowExchange(question: question, id: id, result: .success(answer), answerLine: line)
        } catch {
            discardProcess(&state)
            return FlowExchange(question: question, id: id, result: .failure(error), answerLine: line)
        }
    }

    /// Until the adapter has given one valid answer, a line that is no answer of a version this
    /// runner asks (``AdapterSetupFailure/Reason/firstAnswer(_:)``: a banner, a log line, another
    /// `"v"`) is a setup mistake: it is recorded as such, and the error the question fails with
    /// is returned. `nil` when `line` is to be judged as an answer.
    private func firstAnswerSetupFailure(_ line: String, state: inout State) -> AdapterProtocolError? {
        guard state.answered == 0, let reason = AdapterSetupFailure.Reason.firstAnswer(line) else { return nil }
        return failSetup(reason, process: state.process, state: &state)
    }

    /// Why an answer that repeats its question, byte for byte, is refused.
    package static let echoedQuestion =
        "the answer is the question itself, byte for byte: the --sut command echoes its input instead of answering (is it the adapter's command line?)"

    /// Writes `question` and reads one answer line, starting (or restarting) the adapter as
    /// needed; a failure discards the process, so the next question starts a fresh one.
    ///
    /// Until the adapter has written its first line, a failure may be a setup mistake
    /// (``setupFailure``): it could not start, it timed out, the shell could not find or run
    /// the command (exit 126 or 127), or a second start also ended without a line; and an
    /// adapter seen waiting for more input without answering (``IdleWatch``) is asked to finish
    /// by closing its input, which tells an unflushed answer from none at all.
    private func askLine(_ question: String, state: inout State, extraSeconds: Double = 0) -> Result<String, AdapterProtocolError> {
        if let failure = state.setupFailure { return .failure(protocolError(failure)) }
        if state.restarts > Self.maxRestarts { return .failure(.gaveUp(restarts: Self.maxRestarts)) }
        let firstAnswer = state.lines == 0
        do {
            let running = try startedProcess(&state)
            guard let line = try running.ask(question, timeout: timeout + extraSeconds, returningWhenIdle: firstAnswer) else {
                let (late, ending) = running.closeInputAndWait(seconds: 1)
                let reason: AdapterSetupFailure.Reason
                if let late {
                    reason = .answersOnlyAtEndOfInput(line: late)
                } else if case .crashed(let signal)? = ending {
                    reason = .neverAnswers(status: 128 + signal)
                } else if case .exited(let status)? = ending {
                    reason = .neverAnswers(status: status)
                } else {
                    reason = .neverAnswers(status: nil)
                }
                return .failure(failSetup(reason, process: running, state: &state))
            }
            state.lines += 1
            return .success(line)
        } catch {
            if firstAnswer, let reason = Self.setupReason(error, starts: state.starts) {
                return .failure(failSetup(reason, process: state.process, state: &state))
            }
            discardProcess(&state)
            return .failure(error)
        }
    }

    /// The setup failure `error` shows when no line ever came, or `nil` while another start is
    /// worth trying (an exit or a crash may be this question's; a second one is not).
    private static func setupReason(_ error: AdapterProtocolError, starts: Int) -> AdapterSetupFailure.Reason? {
        switch error {
        case .cannotStart(let why): .cannotStart(why)
        case .timedOut(let seconds): .timedOut(seconds: seconds)
        case .exited(let status) where status == 126 || status == 127 || starts >= 2: .exited(status: status, starts: starts)
        case .crashed(let signal) where starts >= 2: .crashed(signal: signal, starts: starts)
        default: nil
        }
    }

    /// Records `reason` as the adapter's setup failure (with its standard error), stops it, and
    /// returns the protocol error the question fails with.
    private func failSetup(_ reason: AdapterSetupFailure.Reason, process: AdapterProcess?, state: inout State) -> AdapterProtocolError {
        process?.stop(graceSeconds: 0.05)
        let failure = AdapterSetupFailure(command: command, reason: reason, standardError: process?.standardErrorHead(waitingUpTo: 0.5) ?? [])
        state.setupFailure = failure
        state.process = nil
        return protocolError(failure)
    }

    /// The protocol error a question fails with once the adapter counts as not set up.
    private func protocolError(_ failure: AdapterSetupFailure) -> AdapterProtocolError {
        switch failure.reason {
        case .cannotStart(let why): .cannotStart(why)
        case .exited(let status, _): .exited(status: status)
        case .crashed(let signal, _): .crashed(signal: signal)
        case .timedOut(let seconds): .timedOut(seconds: seconds)
        case .answersOnlyAtEndOfInput, .neverAnswers: .timedOut(seconds: timeout)
        case .notAnAnswer(let line): .malformedAnswer("answer is not a JSON object: \(AdapterAnswer.excerpt(line))")
        case .unknownVersion(let version, _): .malformedAnswer("answer's \"v\" is \(version ?? "missing"), expected 1 or 2")
        }
    }

    /// Why the adapter never answered a question, once that is known: the run should stop
    /// with a configuration error (exit 2) rather than report contracts.
    package var setupFailure: AdapterSetupFailure? { state.withLock { $0.setupFailure } }

    /// Whether the adapter is known to answer no question (``setupFailure``).
    package var failedSetup: Bool { setupFailure != nil }

    /// Asks one question of protocol version 2 (a report's `submit`, `tryAgain` or `cancel`),
    /// made by `question` from its id, and decodes the answer with `decode` (given the line and
    /// the id). Ids continue the oracle's sequence; failures follow the same restart policy. The
    /// answer may take `extraSeconds` longer than the oracle's time-out (the network the app
    /// meets may hold an answer that long).
    /// - Returns: the question line, the answer line if any, the decoded answer or why there is
    ///   none, and, when there is none, what the adapter wrote on standard error meanwhile.
    package func askSubmission<Answer>(
        _ question: (Int) -> JSONValue, extraSeconds: Double = 0, decode: (String, Int) throws(AdapterProtocolError) -> Answer
    ) -> (question: String, answerLine: String?, answer: Result<Answer, AdapterProtocolError>, standardError: StandardErrorExcerpt) {
        state.withLock { state in
            let id = state.nextId
            state.nextId += 1
            let text = question(id).serialized()
            state.failedQuestionErrors = StandardErrorExcerpt()
            switch askLine(text, state: &state, extraSeconds: extraSeconds) {
            case .failure(let error): return (text, nil, .failure(error), state.failedQuestionErrors)
            case .success(let line):
                if let failure = firstAnswerSetupFailure(line, state: &state) { return (text, line, .failure(failure), state.failedQuestionErrors) }
                do throws(AdapterProtocolError) {
                    let answer = try decode(line, id)
                    state.answered += 1
                    return (text, line, .success(answer), StandardErrorExcerpt())
                } catch {
                    discardProcess(&state)
                    return (text, line, .failure(error), state.failedQuestionErrors)
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

    /// Stops the adapter after a failed question, keeping what it wrote on standard error while
    /// it was asked.
    private func discardProcess(_ state: inout State) {
        if let process = state.process {
            process.stop(graceSeconds: 0.05)
            state.failedQuestionErrors = process.questionStandardError(waitingUpTo: 0.5)
        }
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
