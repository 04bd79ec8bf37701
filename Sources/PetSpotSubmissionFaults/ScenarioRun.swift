import Foundation
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// A scenario as one app lived it: every turn, and what the backend holds afterwards.
package struct ScenarioRun: Sendable {
    /// The scenario.
    package var scenario: SubmissionScenario
    /// The report as this execution submitted it (its microchip input replaced).
    package var flowCase: FlowCase
    /// The microchip number the report carried in this execution, if any.
    package var microchip: String?
    /// The photo the user attached.
    package var photo: Data
    /// The request time-out the app was given, in seconds.
    package var requestTimeout: Double
    /// The turns, in order.
    package var turns: [ScenarioTurn] = []
    /// Every announcement the scenario's creates made, in order.
    package var created: [CreatedAnnouncement] = []

    /// The attempt turns (submit and Try Again).
    package var attempts: [ScenarioTurn] { turns.filter { $0.action != .cancel } }

    /// The first adapter answer that broke the protocol, if any.
    package var protocolError: (turn: Int, error: AdapterProtocolError)? {
        for (index, turn) in turns.enumerated() {
            if case .failure(let error) = turn.turn.answer { return (index, error) }
        }
        return nil
    }

    /// Every request of the scenario, in order.
    package var exchanges: [ProxiedExchange] { turns.flatMap(\.exchanges) }

    /// Whether the app gave up on a held answer too soon (``gaveUpTooSoon(on:requestTimeout:)``):
    /// the property time-out fails it.
    package var gaveUpTooSoon: Bool {
        exchanges.contains { Self.gaveUpTooSoon(on: $0, requestTimeout: requestTimeout) }
    }

    /// Whether `exchange`'s answer was held and the app, given `requestTimeout`, gave up on it
    /// sooner than ``ScenarioExecutor/earliestAllowedGiveUp(requestTimeout:)`` after it arrived.
    static func gaveUpTooSoon(on exchange: ProxiedExchange, requestTimeout: Double) -> Bool {
        guard exchange.fault == .holdPastTimeout, case .gaveUp(let seconds) = exchange.delivery else { return false }
        return seconds < ScenarioExecutor.earliestAllowedGiveUp(requestTimeout: requestTimeout)
    }

    /// Whether the machine, not the app, disturbed the run: the app gave up on a healthy
    /// request, which the proxy answers at once (a loaded machine delayed it past the app's
    /// time-out), before the answer was written or, in an attempt that ended in the no-connection
    /// alert, with it unread or before sending a byte of it. Such a run says nothing about the app
    /// and is run again. (An app may leave an answer's body unread and go on, or show the alert
    /// for its status, as urllib's callers do with a 409: only the no-connection alert says that
    /// it saw no answer.)
    package var isDisturbed: Bool {
        turns.contains { turn in
            var showsNoConnection = false
            if case .success(.alert(let message)) = turn.turn.answer { showsNoConnection = message == SubmissionProperty.noConnection }
            if showsNoConnection && turn.abandonedConnections > 0 { return true }
            return turn.exchanges.contains { exchange in
                guard exchange.fault == nil, exchange.request != nil else { return false }
                switch exchange.delivery {
                case .gaveUp: return true
                case .unread: return showsNoConnection
                case .answered, .noAnswer, .outwaited: return false
                }
            }
        }
    }
}

extension ScenarioRun {
    /// The scenario as a person replays it by hand: each action of the user with what the app
    /// showed, and under it each request the app sent, the fault on it and what came of it.
    package func steps(redactor: Redactor) -> [FailureStep] {
        var steps: [FailureStep] = []
        for turn in turns {
            let action: String
            switch turn.action {
            case .submit:
                action = "user: fills the \(scenario.flowCase.flow.rawValue) report"
                    + (flowCase.inputs[text: .chipNumber].map { " (microchip typed \"\($0)\")" } ?? " (no microchip)") + " and submits it"
            case .tryAgain: action = "user: taps Try Again"
            case .cancel: action = "user: taps Cancel"
            }
            let outcome: String
            switch turn.turn.answer {
            case .success(let answer): outcome = "app: " + answer.description
            case .failure(let error): outcome = "app: " + error.description
            }
            steps.append(FailureStep(action: action, outcome: outcome))
            if turn.abandonedConnections > 0 {
                steps.append(FailureStep(
                    action: "network: \(turn.abandonedConnections) connection(s)",
                    outcome: "the app opened and closed them without sending a request"))
            }
            for exchange in turn.exchanges {
                steps.append(FailureStep(
                    action: "network, request \(exchange.index + 1): " + SubmissionProperty.describe(exchange.request),
                    outcome: Self.outcome(of: exchange, created: created), request: exchange.request.map(redactor.request)))
            }
        }
        return steps
    }

    /// What happened to one connection: the fault, the backend's answer, what reached the app.
    static func outcome(of exchange: ProxiedExchange, created: [CreatedAnnouncement]) -> String {
        var parts: [String] = []
        if let fault = exchange.fault { parts.append("fault: \(fault)") }
        if let answer = exchange.backendAnswer {
            switch answer {
            case .success(let response):
                let id = created.first { $0.request == exchange.index }.map { " (\($0.id))" } ?? ""
                parts.append("the backend answered \(response.status)\(id)")
            case .failure(let error): parts.append("the backend gave no answer (\(error.description))")
            }
        } else if exchange.request != nil, exchange.fault != nil {
            parts.append("the backend never saw it")
        }
        switch exchange.delivery {
        case .answered(let status): parts.append(exchange.fault == nil ? "answered \(status)" : "the app got \(status)")
        case .unread(let status, let seconds):
            parts.append("\(exchange.fault == nil ? "answered" : "the app was sent") \(status); the app closed the connection without reading it after \(ContractReport.seconds(seconds)) s")
        case .noAnswer: parts.append("the app got no answer")
        case .gaveUp(let seconds): parts.append("the app gave up after \(ContractReport.seconds(seconds)) s")
        case .outwaited(let seconds): parts.append("the app still waited after \(ContractReport.seconds(seconds)) s, when the runner closed the connection")
        }
        return parts.joined(separator: "; ")
    }
}
