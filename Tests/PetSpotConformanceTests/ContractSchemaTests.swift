import Foundation
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotModel
import PetSpotPropertyTesting
import PetSpotRunner
import Testing
import PetSpotReport

/// The captured schemas against the model and the catalog (issues 4 and 7): every payload the
/// model submits validates against `create-request` and the stricter `client-payload` (with the
/// character caps), and every catalog case gets the schema verdict the catalog records.
@Suite("Contract schemas")
struct ContractSchemaTests {
    static let schemas = try! ContractSchemas.shared()

    @Test("every payload the model submits validates against create-request and client-payload")
    func payloadsValidate() {
        let documents = Self.schemas.documents
        propertyCheck(
            submittedCases, configuration: PropertyConfiguration(cases: 500),
            coverage: [CoverageRequirement("missing", atLeast: 30), CoverageRequirement("found", atLeast: 30)],
            verifying: { flowCase, payload in
                label(flowCase.flow.rawValue)
                for name in [ContractSchemaName.createRequest, .clientPayload] {
                    let violations = Self.schemas.violations(of: .object(payload), against: name)
                    try require(violations.isEmpty, "\(name.fileName): \(violations.joined(separator: "; "))")
                }
                let overCap = documents.characterLimitViolations(in: payload)
                try require(overCap.isEmpty, "character caps: \(overCap)")
            })
    }

    @Test("every catalog case gets the create-request verdict the catalog records")
    func catalogVerdicts() throws {
        let catalog = Self.schemas.documents.negativeCases
        var checked = 0
        for negativeCase in catalog.cases {
            guard let verdict = negativeCase.createRequestSchema else { continue }
            let body = try negativeCase.body(from: catalog.basePayload)
            guard let json = body.json else {
                Issue.record("\(negativeCase.id): a schema verdict on a body that is not JSON")
                continue
            }
            let violations = Self.schemas.violations(of: json, against: .createRequest)
            switch verdict {
            case .valid: #expect(violations.isEmpty, "\(negativeCase.id): rejected by create-request: \(violations)")
            case .invalid: #expect(!violations.isEmpty, "\(negativeCase.id): accepted by create-request")
            }
            checked += 1
        }
        #expect(checked >= 140)
    }

    @Test("the schemas' own examples validate, and the model's fixtures too")
    func examplesValidate() {
        let documents = Self.schemas.documents
        for name in ContractSchemaName.allCases {
            for example in documents[name]["examples"]?.arrayValue ?? [] {
                let violations = Self.schemas.violations(of: example, against: name)
                #expect(violations.isEmpty, "\(name.fileName) example: \(violations)")
            }
        }
    }
}

/// The kept regressions of `Contracts/catalog/regressions.json` hold for the reference model.
@Suite("Kept regressions")
struct KeptRegressionTests {
    @Test("every kept regression holds")
    func regressionsHold() throws {
        let schemas = try ContractSchemas.shared()
        let replay = RegressionReplay(catalog: schemas.documents.regressions, schemas: schemas, oracle: ReferenceOracle(), usesMock: true)
        let recorder = ContractRecorder()
        replay.run(recorder: recorder, replay: "swift test --filter regressionsHold")
        let report = recorder.report(command: "test", arguments: [], target: "reference model", seed: 0, startedAt: Date())
        #expect(!report.hasFailures, "\(report.consoleText)")
        #expect(schemas.documents.regressions.cases.count >= 3)
    }
}
