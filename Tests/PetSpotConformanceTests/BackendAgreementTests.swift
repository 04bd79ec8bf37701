import Foundation
import PetSpotContractKit
import PetSpotFlowGenerators
import PetSpotPropertyEngine
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
import PetSpotPropertyTesting
import Testing

/// Payload properties against the backend: the in-process strict mock accepts every
/// payload the model submits, and the production profile agrees with the model both ways.
/// Helpers to build payloads outside the wizard.
enum Fixtures {
    /// The payload of `inputs` when every step passes at `context`.
    static func payload(_ inputs: ReportInputs, flow: ReportFlowKind, context: ReportContext) -> JSONObject {
        guard case .submitted(let payload) = ReferenceModel.evaluate(flow: flow, inputs: inputs, context: context) else { return JSONObject() }
        return payload
    }
}

@Suite("Backend agreement")
struct BackendAgreementTests {
    /// Submits `payload` to a fresh mock whose clock is the case's instant.
    static func create(_ payload: JSONObject, profile: BackendProfile, context: ReportContext) -> (Int, JSONValue?) {
        let backend = MockBackend(profile: profile, clock: { context.now })
        let request = InProcessTransport.httpRequest(TransportRequest(
            method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")],
            body: JSONValue.object(payload).serializedData()))
        let response = backend.answer(request)
        return (response.status, try? JSONValue.parse(response.body))
    }

    @Test("the strict mock answers 201 to every payload the model submits (hostile input included)", arguments: BackendProfile.allCases)
    func backendAcceptsEverySubmission(profile: BackendProfile) {
        propertyCheck(
            submittedCases, name: "backendAcceptsEverySubmission", configuration: PropertyConfiguration(cases: 400),
            coverage: [CoverageRequirement("missing", atLeast: 30), CoverageRequirement("found", atLeast: 30)],
            verifying: { flowCase, payload in
                label(flowCase.flow.rawValue)
                let localToday = flowCase.context.today
                classify(localToday > flowCase.context.latestReportDate, "local date ahead of UTC")
                let (status, answer) = Self.create(payload, profile: profile, context: flowCase.context)
                try require(status == 201, "the \(profile.rawValue) backend answered \(status) \(answer?.description ?? "")")
            })
    }

    @Test("east of UTC after local midnight: the model blocks the user's today, which the backend would refuse")
    func dateEastOfUTC() throws {
        // 2026-11-21T10:30:00Z is 00:30 on 2026-11-22 in Kiritimati (UTC+14).
        let context = ReportContext(
            timeZone: TimeZone(identifier: "Pacific/Kiritimati")!, now: ReportContext.parseInstant("2026-11-21T10:30:00Z")!)
        var inputs = FlowGenerators.flowCase(.found, .valid).samples(count: 1, seed: 3)[0].inputs
        inputs.lastSeenDate = context.today
        // The backend refuses the user's today...
        // (built as the model would a day later, when the 22nd is allowed everywhere)
        let payload = Fixtures.payload(
            inputs, flow: .found, context: ReportContext(timeZone: context.timeZone, now: context.now.addingTimeInterval(86_400)))
        #expect(payload["lastSeenDate"] == "2026-11-22")
        let (refused, answer) = Self.create(payload, profile: .production, context: context)
        #expect(refused == 400 && answer?["error"]?["field"] == "lastSeenDate")
        // ...so the model blocks it, and submits the day before, which the backend accepts.
        #expect(ReferenceModel.evaluate(flow: .found, inputs: inputs, context: context) == .blocked(step: .petDetails, fields: [.lastSeenDate]))
        inputs.lastSeenDate = CalendarDate(iso: "2026-11-21")
        guard case .submitted(let accepted) = ReferenceModel.evaluate(flow: .found, inputs: inputs, context: context) else {
            Issue.record("the day before should be submitted")
            return
        }
        #expect(Self.create(accepted, profile: .production, context: context).0 == 201)
    }

    @Test("a full submission (create, then photo upload with Basic auth) succeeds against the strict mock and reads back")
    func fullSubmissionReadsBack() async throws {
        let cases = FlowGenerators.flowCase(.valid).samples(count: 60, seed: 20_261_121)
        for flowCase in cases {
            let backend = MockBackend(profile: .strict, clock: { flowCase.context.now })
            var wizard = ReportWizard(flow: flowCase.flow)
            var form = ReportForm(entering: flowCase.inputs, in: flowCase.flow)
            form.photo = form.photo.map(PhotoContents.materialized)
            for step in flowCase.flow.steps {
                for field in step.fields {
                    guard let value = form[field] else { continue }
                    if case .text(let text) = value { wizard.type(text, into: field) } else { wizard.pick(field) { $0[field] = value } }
                }
                if step != flowCase.flow.steps.last { _ = wizard.continueTapped(context: flowCase.context) }
            }
            let submitter = ReportSubmitter(transport: InProcessTransport(backend: backend))
            let outcome = await wizard.submit(via: submitter, context: flowCase.context)
            guard case .submitting(let payload) = outcome else {
                Issue.record("\(flowCase): \(outcome)")
                continue
            }
            #expect(wizard.alert == nil, "\(flowCase): \(String(describing: wizard.alert))")
            let ids = backend.storedAnnouncementIdentifiers
            #expect(ids.count == 1)
            guard let id = ids.first, let stored = backend.storedAnnouncement(id: id) else { continue }
            #expect(stored["photoUrl"]?.stringValue?.hasPrefix("/images/\(id).") == true)
            #expect(stored["status"] == .string(payload.status.wireValue))
            #expect(stored["managementPassword"] == nil)
            switch flowCase.flow {
            case .missing:
                if case .summary(let password) = wizard.screen {
                    #expect(backend.verifiesManagementPassword(password, id: id))
                } else {
                    Issue.record("Missing flow did not show the summary: \(wizard.screen)")
                }
            case .found:
                #expect(wizard.screen == .closed)
            }
        }
    }

    @Test("the model blocks what the production backend would refuse: age 0, long emails, future dates, non-ASCII digits")
    func modelBlocksWhatBackendRefuses() {
        // Reports blocked only for reasons the backend also refuses: the model must block them.
        let refused: [(String, (inout ReportInputs) -> Void)] = [
            ("age 0", { $0[text: .age] = "0" }),
            ("255-character email", { $0[text: .email] = String(repeating: "a", count: 243) + "@example.com" }),
            ("date after today", { $0.lastSeenDate = CalendarDate(iso: "2026-11-23") }),
            ("latitude past 90", { $0[text: .latitude] = "90.000001" }),
            ("longitude past -180", { $0[text: .longitude] = "-180.000001" }),
            ("Arabic-Indic phone", { $0[text: .phone] = "٠١٢٣٤٥٦٧٨٩" }),
            ("fullwidth latitude", { $0[text: .latitude] = "５２" }),
            ("hexadecimal longitude", { $0[text: .longitude] = "0x1p3" }),
        ]
        let context = ReportContext(timeZone: TimeZone(identifier: "Europe/Warsaw")!, now: FlowGenerators.referenceInstant)
        var inputs = FlowGenerators.flowCase(.missing, .valid).samples(count: 1, seed: 5)[0].inputs
        inputs.lastSeenDate = CalendarDate(iso: "2026-11-20")
        for (name, mutate) in refused {
            var hostile = inputs
            mutate(&hostile)
            if case .submitted = ReferenceModel.evaluate(flow: .missing, inputs: hostile, context: context) {
                Issue.record("the model submits a report with \(name)")
            }
        }
    }
}
