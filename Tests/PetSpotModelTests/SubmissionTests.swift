import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotModel

@Suite("Submission")
struct SubmissionTests {
    let context = Fixtures.context

    @Test("create then multipart upload with Basic id:password")
    func twoRequests() async throws {
        let transport = ScriptedTransport([.respond(201, ScriptedTransport.createdBody), .respond(201, [:])])
        var wizard = Fixtures.wizardOnLastStep(.missing)
        let outcome = await wizard.submit(via: ReportSubmitter(transport: transport), context: context)
        guard case .submitting(let payload) = outcome else {
            Issue.record("expected a submission, got \(outcome)")
            return
        }
        #expect(wizard.screen == .summary(managementPassword: "482913"))
        let sent = transport.sentRequests
        #expect(sent.count == 2)
        #expect(sent[0].method == "POST" && sent[0].path == "/api/v1/announcements")
        #expect(sent[0].header("content-type") == "application/json")
        #expect(try JSONValue.parse(sent[0].body) == payload.json)
        let id = "0b6f7d2e-5c1a-4b8e-9f3d-2a1c4e5f6a7b"
        #expect(sent[1].path == "/api/v1/announcements/\(id)/photos")
        let expectedAuth = "Basic " + Data("\(id):482913".utf8).base64EncodedString()
        #expect(sent[1].header("Authorization") == expectedAuth)
        let contentType = try #require(sent[1].header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let body = String(decoding: sent[1].body, as: UTF8.self)
        #expect(body.contains("Content-Disposition: form-data; name=\"photo\"; filename=\"rex.png\""))
        #expect(sent[1].body.range(of: Fixtures.pngBytes) != nil)
    }

    @Test("no connection maps to the connection message and keeps state")
    func noConnection() async {
        let transport = ScriptedTransport([.fail(.timedOut)])
        var wizard = Fixtures.wizardOnLastStep(.found)
        let form = wizard.form
        _ = await wizard.submit(via: ReportSubmitter(transport: transport), context: context)
        #expect(wizard.alert == .noConnection)
        #expect(wizard.alert?.userMessage == "No connection. Please check your network and try again.")
        #expect(wizard.form == form && wizard.currentStep == .contactInfo)
    }

    @Test("any 4xx/5xx maps to the generic message; a failed upload fails the submission", arguments: [
        [ScriptedTransport.Answer.respond(400, ScriptedTransport.errorBody)],
        [.respond(503, ScriptedTransport.errorBody)],
        [.respond(201, ScriptedTransport.createdBody), .respond(403, ScriptedTransport.errorBody)],
        [.respond(201, ScriptedTransport.createdBody), .fail(.noConnection("reset"))],
        [.respond(201, ["id": "x"])],
    ])
    func failures(script: [ScriptedTransport.Answer]) async {
        let transport = ScriptedTransport(script)
        var wizard = Fixtures.wizardOnLastStep(.missing)
        let form = wizard.form
        _ = await wizard.submit(via: ReportSubmitter(transport: transport), context: context)
        let alert = wizard.alert
        #expect(alert != nil)
        if case .noConnection? = alert {
            #expect(alert?.userMessage == "No connection. Please check your network and try again.")
        } else {
            #expect(alert?.userMessage == "Something went wrong. Please try again later.")
        }
        #expect(wizard.form == form && wizard.currentStep == .contactDetails)
    }

    @Test("Try Again repeats both requests from the start")
    func tryAgainRepeatsBoth() async {
        let transport = ScriptedTransport([
            .respond(201, ScriptedTransport.createdBody), .respond(500, ScriptedTransport.errorBody),
            .respond(201, ScriptedTransport.createdBody), .respond(201, [:]),
        ])
        let submitter = ReportSubmitter(transport: transport)
        var wizard = Fixtures.wizardOnLastStep(.found)
        _ = await wizard.submit(via: submitter, context: context)
        #expect(wizard.alert != nil)
        _ = await wizard.submit(via: submitter, context: context)
        #expect(wizard.screen == .closed)
        let paths = transport.sentRequests.map(\.path)
        #expect(paths.count == 4)
        #expect(paths[0] == "/api/v1/announcements" && paths[2] == "/api/v1/announcements")
        #expect(paths[1].hasSuffix("/photos") && paths[3].hasSuffix("/photos"))
    }
}
