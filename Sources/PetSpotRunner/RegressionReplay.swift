import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotReport

/// Replays `Contracts/catalog/regressions.json`: shrunk failures worth keeping, run on every
/// `check` (and by the conformance tests) so a fixed bug stays fixed.
///
/// - `flow` cases ask the oracle (the reference model, or the adapter under test) the kept
///   question and expect the kept answer: the same outcome, step and fields (as sets) or the
///   same payload.
/// - `clientPayload` cases validate the kept payload against `client-payload.schema.json`.
/// - `createRequest` cases send the kept body to a fresh in-process strict mock (when the run
///   uses one) and expect the strict answer, or the production one where they agree.
package struct RegressionReplay: Sendable {
    /// The report group the cases are recorded under.
    static let group = "regressions (Contracts/catalog/regressions.json)"

    let catalog: RegressionCatalog
    let schemas: ContractSchemas
    let oracle: any FlowOracle
    let usesMock: Bool

    /// A replay of `catalog` through `oracle`, validating with `schemas`; `createRequest` cases
    /// run against an in-process strict mock only when `usesMock`.
    package init(catalog: RegressionCatalog, schemas: ContractSchemas, oracle: any FlowOracle, usesMock: Bool) {
        self.catalog = catalog
        self.schemas = schemas
        self.oracle = oracle
        self.usesMock = usesMock
    }

    /// Runs every case, one contract per case, into `recorder`.
    package func run(recorder: ContractRecorder, replay: String) {
        for regression in catalog.cases {
            let contract = "\(regression.id) (kept \(regression.addedOn))"
            switch failure(of: regression) {
            case nil:
                recorder.pass(group: Self.group, contract: contract)
            case .some(.skipped(let reason)):
                recorder.skip(group: Self.group, contract: contract, reason: reason)
            case .some(.failed(let failure)):
                var failure = failure
                failure.replay = replay
                if let note = regression.note { failure.message += " (kept because: \(note))" }
                recorder.fail(group: Self.group, contract: contract, failure)
            }
        }
    }

    enum Outcome {
        case skipped(String)
        case failed(ContractFailure)
    }

    /// Why `regression` does not hold, or `nil` when it does.
    func failure(of regression: RegressionCase) -> Outcome? {
        switch regression.check {
        case .flow(let question, let answer):
            return flowFailure(regression.id, question: question, answer: answer)
        case .clientPayload(let payload, let valid):
            let violations = schemas.violations(of: payload, against: .clientPayload)
            guard violations.isEmpty != valid else { return nil }
            return .failed(ContractFailure(
                message: valid ? "client-payload rejects it: \(violations.joined(separator: "; "))" : "client-payload accepts it",
                caseId: regression.id, expected: valid ? "valid" : "invalid", actual: valid ? "invalid" : "valid",
                shrunkInput: payload))
        case .createRequest(let body, let expected, let strictExpected):
            guard usesMock else { return .skipped("no mock in this run (--no-mock)") }
            let backend = MockBackend(profile: .strict)
            let request = InProcessTransport.httpRequest(TransportRequest(
                method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")],
                body: body.serializedData()))
            let response = backend.answer(request)
            let wanted = strictExpected ?? expected
            guard let mismatch = wanted.mismatch(status: response.status, body: try? JSONValue.parse(response.body)) else { return nil }
            return .failed(ContractFailure(
                message: mismatch, caseId: regression.id, expected: wanted.description,
                actual: "\(response.status) \(response.bodyText)", shrunkInput: body))
        }
    }

    func flowFailure(_ id: String, question: JSONValue, answer: JSONValue) -> Outcome? {
        let flowCase: FlowCase
        do {
            guard let flow = question["flow"]?.stringValue.flatMap(ReportFlowKind.init(rawValue:)) else {
                return .failed(ContractFailure(message: "the kept question has no valid \"flow\"", caseId: id))
            }
            flowCase = FlowCase(
                flow: flow, inputs: try ReportInputs(json: question["inputs"] ?? [:]),
                context: try ReportContext(json: question["context"] ?? [:]))
        } catch {
            return .failed(ContractFailure(message: "the kept question does not decode: \(error)", caseId: id))
        }
        var answerLine = answer.objectValue ?? JSONObject()
        answerLine["v"] = 1
        answerLine["id"] = 0
        let expected: AdapterAnswer
        do {
            expected = try AdapterAnswer(line: JSONValue.object(answerLine).serialized(), expectedId: 0)
        } catch {
            return .failed(ContractFailure(message: "the kept answer does not decode: \(error)", caseId: id))
        }
        let exchange = oracle.answer(flowCase)
        // A flow the app does not have is one failure of the flow answers, not one per kept case.
        if case .success(.unavailable) = exchange.result, expected != .unavailable {
            return .skipped("not checked: " + FlowAnswerChecks.missingFlow(flowCase.flow) + ", which the flow answers report")
        }
        let problem = FlowAnswerChecks.protocolFailure(exchange) ?? FlowAnswerChecks.referenceMismatch(exchange, reference: expected, flow: flowCase.flow)
        guard var problem else { return nil }
        if problem.contains(ReportField.lastSeenDate.name) { problem += " (" + FlowAnswerChecks.latestAllowedDateNote(flowCase.context) + ")" }
        return .failed(ContractFailure(
            message: problem, caseId: id, expected: expected.json(id: exchange.id).serialized(),
            actual: exchange.answerLine ?? "(no answer)", shrunkInput: flowCase.json))
    }
}
