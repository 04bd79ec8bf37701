// Tests/ReportFlowContractTests/ReportFlowContractTests.swift
import MyAppReports
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotPropertyTesting
import Testing

/// The app's answer to a generated case, as a `ReportOutcome`: a blocked step and its fields by
/// their protocol names (`ReportStep(name:)`, `ReportField(name:)`), a submitted body parsed as JSON.
func appOutcome(for flowCase: FlowCase) throws -> ReportOutcome {
    let context = flowCase.context
    switch MyAppReportFlow.run(flow: flowCase.flow, inputs: flowCase.inputs, now: context.now, timeZone: context.timeZone) {
    case .blocked(let stepName, let fieldNames):
        guard let step = ReportStep(name: stepName) else { throw RequirementFailure("unknown step \(stepName)") }
        let fields = try fieldNames.map { name in
            guard let field = ReportField(name: name) else { throw RequirementFailure("unknown field \(name)") }
            return field
        }
        return .blocked(step: step, fields: fields)
    case .submitted(let body):
        guard let payload = try JSONValue.parse(body).objectValue else { throw RequirementFailure("the body is not an object") }
        return .submitted(payload: payload)
    }
}

/// Whether two outcomes agree: the same payload (members in any order), or the same step with
/// the same invalid fields compared as sets (`==` on `ReportOutcome` compares them in order).
func sameOutcome(_ left: ReportOutcome, _ right: ReportOutcome) -> Bool {
    switch (left, right) {
    case (.submitted(let a), .submitted(let b)): a == b
    case (.blocked(let stepA, let fieldsA), .blocked(let stepB, let fieldsB)): stepA == stepB && Set(fieldsA) == Set(fieldsB)
    default: false
    }
}

@Test func appMatchesTheReferenceModel() {
    // Half valid reports (they must submit), half hostile input (they may block).
    let reports = Gen.oneOf(FlowGenerators.flowCase(.valid), FlowGenerators.flowCase(.hostile))
    propertyCheck(reports, verifying: { flowCase in
        let expected = ReferenceModel.evaluate(flow: flowCase.flow, inputs: flowCase.inputs, context: flowCase.context)
        let actual = try appOutcome(for: flowCase)
        // The engine's require, spelled with its module: next to Swift Testing a bare `require`
        // would be read as the #require macro.
        try PetSpotPropertyEngine.require(sameOutcome(actual, expected), "app: \(actual)\nreference: \(expected)")
    })
}

@Test func appReportsAreAcceptedByTheStrictMock() async {
    for flowCase in FlowGenerators.flowCase(.valid).samples(count: 20, seed: 1) {
        let context = flowCase.context
        let result = MyAppReportFlow.run(flow: flowCase.flow, inputs: flowCase.inputs, now: context.now, timeZone: context.timeZone)
        guard case .submitted(let body) = result, let photo = flowCase.inputs.photo else {
            Issue.record("a valid report was not submitted: \(flowCase)")
            continue
        }
        // Create, then the photo upload with Basic auth, into the strict mock in-process (no
        // sockets), its clock at the report's instant.
        let submitter = ReportSubmitter(transport: InProcessTransport(backend: MockBackend(clock: { context.now })))
        guard let payload = try? CreateAnnouncementRequest(json: JSONValue.parse(body)) else {
            Issue.record("the app's body is not a create request: \(String(decoding: body, as: UTF8.self))")
            continue
        }
        if case .failure(let failure) = await submitter.submit(payload, photo: PhotoContents.materialized(photo)) {
            Issue.record("the strict mock refused \(flowCase): \(failure)")
        }
    }
}
