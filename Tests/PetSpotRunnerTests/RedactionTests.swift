import Foundation
@testable import PetSpotCLI
import PetSpotConcurrency
import PetSpotJSON
import PetSpotMockBackend
import PetSpotMockTransport
import PetSpotModel
@testable import PetSpotReport
import PetSpotRuntime
import Testing

@Suite("redaction and display text")
struct RedactionTests {
    @Test("a secret of 6+ characters is masked as a substring, in every encoding the runner may have sent it")
    func longSecretEncodings() {
        let secret = #"s3"cr3t/t0ken+x=\"#
        let redactor = Redactor(secrets: [secret])
        let forms = [
            secret,
            "s3%22cr3t%2Ft0ken%2Bx%3D%5C",  // percent-encoded
            "s3%22cr3t%2ft0ken%2bx%3d%5c",  // percent-encoded, lower-case hex
            #"s3\"cr3t/t0ken+x=\\"#,  // inside a JSON string
            "s3&quot;cr3t/t0ken+x=\\",  // HTML-escaped
            "czMiY3IzdC90MGtlbit4PVw",  // base64, without padding
        ]
        for form in forms {
            #expect(redactor.scrub("before \(form) after") == "before ****** after", "\(form)")
        }
        #expect(redactor.scrub("x\(secret)y") == "x******y")
    }

    @Test("a secret shorter than 6 characters is masked where it stands as a credential, and nowhere else")
    func shortSecretCredentialPositions() {
        let redactor = Redactor(secrets: ["ab"])
        #expect(redactor.scrub(#"{"authorization":"ab","other":"ab"}"#) == #"{"authorization":"******","other":"ab"}"#)
        #expect(redactor.scrub("/echo?token=ab&x=ab") == "/echo?token=******&x=ab")
        #expect(redactor.scrub("error\nAuthorization: ab\nHost: ab") == "error\nAuthorization: ******\nHost: ab")
        #expect(redactor.scrub("Authorization: Bearer ab") == "Authorization: Bearer ******")
        #expect(redactor.scrub("it sent Bearer ab, then ab") == "it sent Bearer ******, then ab")
        #expect(redactor.scrub(#"{"text":"Authorization: ab\r\nX: ab"}"#) == #"{"text":"Authorization: ******\r\nX: ab"}"#)
        #expect(redactor.scrub("a label about tabs") == "a label about tabs")
        #expect(redactor.arguments(["--admin-token", "ab", "--cases", "ab"]) == ["--admin-token", "******", "--cases", "ab"])
        #expect(redactor.header(name: "X-Note", value: "ab") == "ab")
        #expect(redactor.header(name: "X-Note", value: "Bearer ab") == "Bearer ******")
        #expect(redactor.json(["authorization": "ab", "n": "ab"]) == ["authorization": "******", "n": "ab"])
        #expect(redactor.scrub(#"/managementPassword: "ab" does not match, /name: "ab" does"#) == #"/managementPassword: "******" does not match, /name: "ab" does"#)
    }

    @Test("a secret made of digits is not masked inside a longer number")
    func digitBoundaries() {
        let redactor = Redactor(secrets: ["123456"])
        #expect(redactor.scrub("microchip 987123456001234, password 123456.") == "microchip 987123456001234, password ******.")
        #expect(redactor.scrub("seeds 9123456 and 1234567") == "seeds 9123456 and 1234567")
        #expect(redactor.scrub(#""managementPassword":"123456""#) == #""managementPassword":"******""#)
        #expect(redactor.scrub("id:123456") == "id:******")
    }

    @Test("the password of any URL with credentials is masked")
    func urlCredentials() {
        let redactor = Redactor()
        #expect(redactor.scrub("run http://user:pw@host:8080/x and https://a:b@c") == "run http://user:******@host:8080/x and https://a:******@c")
        #expect(redactor.scrub("http://host/a@b") == "http://host/a@b")
        #expect(redactor.arguments(["--base-url", "http://u:p@h"]) == ["--base-url", "http://u:******@h"])
    }

    @Test("the runner learns every credential it sends and every password it is handed")
    func learning() {
        let store = SecretStore(["admin-token"])
        let pair = Data("3f1e:654321".utf8).base64EncodedString()
        store.learn(from: TransportRequest(method: "POST", path: "/p", headers: [("Authorization", "Basic \(pair)")]))
        store.learn(from: TransportRequest(method: "POST", path: "/p", headers: [("Authorization", "Basic")]))
        store.learn(from: TransportRequest(method: "POST", path: "/p", headers: [("Authorization", "Basic " + Data("id:".utf8).base64EncodedString())]))
        store.learn(from: TransportResponse(status: 201, body: Data(#"{"id":"x","managementPassword":"111222"}"#.utf8)))
        let idOnly = Data("id:".utf8).base64EncodedString()
        // Each credential, and each whole value as sent (`Basic ...`).
        #expect(store.secrets == ["admin-token", pair, "Basic \(pair)", "3f1e:654321", "654321", "111222", idOnly, "Basic \(idOnly)"])
        #expect(!store.secrets.contains("Basic"))
        #expect(!store.secrets.contains("3f1e"), "the id (the user part) stays visible")
    }

    /// `Basic base64(text)`.
    static func basic(_ text: String) -> String { "Basic " + Data(text.utf8).base64EncodedString() }

    @Test("the credentials the runner makes up to be refused are not learnt; a password handed out is, even when a decoy equals it")
    func decoys() {
        let store = SecretStore(["petspot-staging-admin-token"])
        let id = "3f1e9c2a-0b7d-4e2a-9c1d-7a6b5c4d3e21"
        let photos = "/api/v1/announcements/\(id)/photos"
        let decoys = [Self.basic("\(id):100000"), "petspot-contracts-wrong-51a4d472", "Bearer not-a-photo-credential", "Basic %%%not-base64%%%", Self.basic(id)]
        for decoy in decoys {
            store.markDecoy(decoy)
            store.learn(from: TransportRequest(method: "POST", path: photos, headers: [("Authorization", decoy)]))
        }
        #expect(store.secrets == ["petspot-staging-admin-token"])
        let shown = "refused \(id):100000, petspot-contracts-wrong-51a4d472, not-a-photo-credential and %%%not-base64%%% for \(id)"
        #expect(store.redactor.scrub(shown) == shown)
        // The same credentials sent unmarked are secrets.
        let unmarked = SecretStore()
        unmarked.learn(from: TransportRequest(method: "POST", path: photos, headers: [("Authorization", Self.basic("\(id):100001"))]))
        #expect(unmarked.redactor.scrub("refused \(id):100001") == "refused \(id):******")
        // A password the target hands out is a secret whatever decoy equals it.
        store.learn(from: TransportResponse(status: 201, body: Data(#"{"id":"x","managementPassword":"100000"}"#.utf8)))
        #expect(store.redactor.scrub("refused \(id):100000") == "refused \(id):******")
    }

    @Test("an announcement id holding colons stays whole before its masked password")
    func idsWithColons() {
        let store = SecretStore()
        for (id, path, password) in [("ab:cd:ef", "ab:cd:ef", "123456"), ("x:y", "x%3Ay", "654321")] {
            store.learn(from: TransportRequest(method: "POST", path: "/api/v1/announcements/\(path)/photos", headers: [("Authorization", Self.basic("\(id):\(password)"))]))
            #expect(store.secrets.contains(password))
            #expect(store.redactor.scrub("user \(id):\(password) refused") == "user \(id):****** refused")
        }
        #expect(store.secrets.isSuperset(of: ["ab:cd:ef:123456", "x:y:654321"]))
        // A segment of the path that only begins the user part is not taken for the id.
        store.learn(from: TransportRequest(method: "POST", path: "/api/v1/announcements/x/photos", headers: [("Authorization", Self.basic("apikey:s3cret-pw"))]))
        #expect(store.redactor.scrub("password s3cret-pw") == "password ******")
        #expect(!store.secrets.contains { $0.hasPrefix("cd:") || $0.hasPrefix("ef:") || $0.hasPrefix("y:") })
    }

    @Test("Basic credentials without a colon are a secret as decoded: an id and a password run together")
    func credentialsWithoutColon() {
        let store = SecretStore()
        let id = "3f1e9c2a-0b7d-4e2a-9c1d-7a6b5c4d3e21"
        store.learn(from: TransportRequest(method: "POST", path: "/api/v1/announcements/\(id)/photos", headers: [("Authorization", Self.basic("\(id)123456"))]))
        #expect(store.redactor.scrub("refused \(id)123456, 123456 and \(id).") == "refused ******, ****** and \(id).")
        // The id alone, without a password, is no secret.
        let idOnly = SecretStore()
        idOnly.learn(from: TransportRequest(method: "POST", path: "/api/v1/announcements/\(id)/photos", headers: [("Authorization", Self.basic(id))]))
        #expect(idOnly.redactor.scrub("refused \(id).") == "refused \(id).")
    }

    @Test("a run shows the decoys it sent to be refused and masks the credentials it was given or handed out", .timeLimit(.minutes(30)))
    func runShowsDecoys() async throws {
        let handedOut = Locked<[String: String]>([:])
        // A backend that accepts any admin token and answers every refused upload with 400 and
        // the credentials it refused, decoded: each of those cases fails and is shown.
        let backend = MockBackend(profile: .strict, defects: [.deleteAnyTokenAccepted], clock: serverClockAhead)
        let transport = BrokenBackendTransport(base: InProcessTransport(backend: backend)) { request, response in
            if response.status == 201, let body = try? JSONValue.parse(response.body), let id = body["id"]?.stringValue,
                let password = body["managementPassword"]?.stringValue
            {
                handedOut.withLock { $0[id] = password }
            }
            guard request.path.hasSuffix("/photos"), response.status == 401 || response.status == 403,
                let value = request.headers.first(where: { $0.name.lowercased() == "authorization" })?.value
            else { return response }
            let decoded = value.hasPrefix("Basic ") ? Data(base64Encoded: String(value.dropFirst(6))).map { String(decoding: $0, as: UTF8.self) } : nil
            let message = JSONValue.string("refused credentials \(decoded ?? value)").serialized()
            return TransportResponse(status: 400, body: Data(#"{"error":{"code":"REFUSED","message":\#(message)}}"#.utf8))
        }
        let result = try await runThrough(transport, ["--cases", "0", "--seed", "9", "--admin-token", MockBackend.defaultAdminToken])
        #expect(result.status == .contractFailed)
        let text = result.out + "\n" + SecretForms.strings(inJSON: result.report.serialized()).joined(separator: "\n")
        #expect(text.contains("-H 'Authorization: petspot-contracts-wrong-"), "the admin-delete group's wrong token")
        #expect(text.contains(":100000") || text.contains(":100001"), "the photo cases' wrong password")
        #expect(text.contains("refused credentials Bearer not-a-photo-credential"))
        #expect(text.contains("refused credentials Bearer ******"), "the password sent under the wrong scheme")
        #expect(!text.contains(MockBackend.defaultAdminToken))
        let passwords = handedOut.withLock { $0 }
        #expect(!passwords.isEmpty)
        for (id, password) in passwords {
            for shown in ["\(id):\(password)", "Bearer \(password)", "credentials :\(password)", "\(id)\(password)"] {
                #expect(!text.contains(shown), "\(shown) is shown")
            }
        }
    }

    @Test("display text escapes control characters and escape codes and states the full length when it cuts")
    func displayText() {
        #expect(DisplayText.sanitized("plain text") == "plain text")
        #expect(DisplayText.sanitized("a\u{1B}[2Jb\u{7}\r\n\u{202E}c") == "a\\u{1B}[2Jb\\u{7}\\r\\n\\u{202E}c")
        let long = String(repeating: "x", count: 10_000)
        let cut = DisplayText.sanitized(long)
        #expect(cut.hasSuffix(" ... (10000 bytes in all)"))
        #expect(cut.utf8.count < DisplayText.maxBytes + 40)
        #expect(DisplayText.sanitized("abc", fullLength: 50_000) == "abc ... (50000 bytes in all)")
    }

    @Test("the final pass covers every field of the report")
    func everyFieldIsCovered() {
        // A new field in one of these types must be added to ContractReport.sanitized(by:).
        let failure = ContractFailure(message: "")
        #expect(Mirror(reflecting: failure).children.compactMap(\.label) == [
            "message", "caseId", "request", "expected", "actual", "shrunkInput", "originalInput", "seed", "replay", "reproduce", "cause",
            "steps",
        ])
        #expect(Mirror(reflecting: FailureStep(action: "", outcome: "")).children.compactMap(\.label) == ["lane", "action", "outcome", "request", "reproduce"])
        #expect(Mirror(reflecting: SpecFinding(group: "", property: "", message: "", consequence: "", steps: [])).children.compactMap(\.label) == [
            "group", "property", "message", "consequence", "steps", "replay",
        ])
        #expect(Mirror(reflecting: ReportedRequest(method: "", path: "")).children.compactMap(\.label) == ["method", "path", "headers", "body"])
        #expect(Mirror(reflecting: GroupOutcome(name: "")).children.compactMap(\.label) == ["name", "contracts", "summary"])
        #expect(Mirror(reflecting: Leftover(id: "", microchipNumber: nil, reason: "")).children.compactMap(\.label) == ["id", "microchipNumber", "reason"])
        #expect(Mirror(reflecting: ContractOutcome(name: "")).children.compactMap(\.label) == [
            "name", "casesRun", "casesFailed", "durationSeconds", "failures", "skipReason",
        ])
        let report = ContractReport(command: "", arguments: [], target: "", seed: nil, startedAt: Date(), durationSeconds: 0, groups: [])
        #expect(Mirror(reflecting: report).children.compactMap(\.label) == [
            "command", "arguments", "target", "seed", "startedAt", "durationSeconds", "groups", "leftovers", "notes", "replay",
            "coverage", "findings", "releases",
        ])
        #expect(Mirror(reflecting: ReleaseOutcome(name: "", recordedOn: "", protocolVersion: 2, verdict: .breaks)).children.compactMap(\.label) == [
            "name", "recordedOn", "protocolVersion", "verdict", "tried", "accepted", "refusals", "nowAccepted", "notChecked", "unavailableFlows",
        ])
        #expect(Mirror(reflecting: ReleaseOutcome.Refusal(
            status: 400, code: nil, field: nil, count: 1, known: false, examplePayload: "", exampleAnswer: "", reproduce: nil)).children.compactMap(\.label) == [
            "status", "code", "field", "count", "known", "examplePayload", "exampleAnswer", "reproduce",
        ])
        // And each string field is passed through: a secret and an escape code in every one.
        let secret = "p4ssw0rd-secret"
        let dirty = "\(secret)\u{1B}"
        let recorder = ContractRecorder(secrets: SecretStore([secret]))
        let dirtyRequest = ReportedRequest(method: dirty, path: dirty, headers: [ReportedHeader(name: dirty, value: dirty)], body: dirty)
        let dirtyStep = FailureStep(lane: dirty, action: dirty, outcome: dirty, request: dirtyRequest, reproduce: dirty)
        var dirtyFailure = ContractFailure(
            message: dirty, caseId: dirty, request: dirtyRequest,
            expected: dirty, actual: dirty, shrunkInput: .string(dirty), originalInput: .object(JSONObject([(dirty, .string(dirty))])), seed: 1, replay: dirty,
            reproduce: dirty, cause: ContractFailure.Cause(fields: [dirty], kind: dirty, cases: 1, shrunk: true))
        dirtyFailure.steps = [dirtyStep]
        recorder.fail(group: dirty, contract: dirty, dirtyFailure)
        recorder.describe(group: dirty, dirty)
        recorder.find(SpecFinding(group: dirty, property: dirty, message: dirty, consequence: dirty, steps: [dirtyStep], replay: dirty))
        recorder.setCoverage(BoundaryCoverage(cases: 1, rows: [
            BoundaryCoverage.Row(field: dirty, rule: dirty, boundaryClass: dirty, detail: dirty, hits: 0, requiredPercent: 1, met: false),
        ], verdict: dirty))
        recorder.skip(group: dirty, contract: dirty, reason: dirty)
        recorder.leave(Leftover(id: dirty, microchipNumber: dirty, reason: dirty))
        recorder.note(dirty)
        recorder.setReplay(dirty)
        recorder.release(ReleaseOutcome(
            name: dirty, recordedOn: dirty, protocolVersion: 2, verdict: .breaks, tried: 1,
            refusals: [ReleaseOutcome.Refusal(status: 400, code: dirty, field: dirty, count: 1, known: false, examplePayload: dirty, exampleAnswer: dirty, reproduce: dirty)],
            unavailableFlows: [dirty]))
        let sanitized = recorder.report(command: dirty, arguments: [dirty], target: dirty, seed: 1, startedAt: Date())
        for text in [sanitized.consoleText, sanitized.json.serialized(), sanitized.junitXML, sanitized.htmlDocument] {
            #expect(!text.contains(secret))
            #expect(!text.contains("\u{1B}"))
        }
    }

    @Test("report files are checked writable before anything runs, without touching an existing report")
    func reportPaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let existing = directory.appendingPathComponent("old.json")
        try Data("previous report".utf8).write(to: existing)
        try ReportFile.checkWritable(existing.path, flag: "--report-json", command: "run")
        #expect(try String(contentsOf: existing, encoding: .utf8) == "previous report")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["old.json"], "the probe file was left")
        #expect(throws: RunnerError.self) { try ReportFile.checkWritable(directory.path, flag: "--junit", command: "run") }
        #expect(throws: RunnerError.self) {
            try ReportFile.checkWritable(directory.path + "/missing/x.xml", flag: "--junit", command: "run")
        }
        let same = try ParsedArguments(["--report-json", existing.path, "--junit", existing.path], for: CheckCommand.spec)
        #expect(throws: RunnerError.self) { try ReportOutputs(same.resolve(environment: [:])) }
    }

    @Test("a report file that cannot be written at the end comes after the complete console report")
    func lateWriteFailure() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
        let recorder = ContractRecorder()
        recorder.leave(Leftover(id: "left-1", microchipNumber: nil, reason: "no --admin-token given"))
        let report = recorder.report(command: "run", arguments: [], target: "t", seed: 1, startedAt: Date())
        let output = CapturedOutput()
        #expect(throws: RunnerError.self) {
            try report.deliver(to: output.runner, json: directory.appendingPathComponent("r.json").path, junit: nil)
        }
        #expect(output.standardOutput.contains("left on target: announcement left-1"))
    }
}
