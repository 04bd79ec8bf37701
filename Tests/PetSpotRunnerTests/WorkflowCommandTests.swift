import Foundation
import PetSpotJSON
@testable import PetSpotReport
import Testing

@Suite("no workflow command from a target's text", .serialized)
struct WorkflowCommandTests {
    @Test("the parser reads both forms as the Actions runner does, and more")
    func parserReadsBothForms() {
        let names = WorkflowCommandParser.commands(in: HostileText.text).map(\.name)
        #expect(names == [
            "stop-commands", "stop-commands", "add-mask", "add-mask", "error", "set-output", HostileText.stopToken, ":warning", "group",
        ])
        #expect(WorkflowCommandParser.commands(in: "text :: not at the start, ## [ no").isEmpty)
    }

    @Test("hostile text is inert in every escaped form, reads back exactly in JSON and HTML, and IPv6 literals are kept")
    func escapedForms() throws {
        for line in HostileText.lines {
            for form in [WorkflowCommands.visible(line), WorkflowCommands.markupEscaped(line)] {
                #expect(WorkflowCommandParser.commands(in: form).isEmpty, "\(form)")
                #expect(!WorkflowCommands.containsCommandMarker(form), "\(form)")
            }
            let json = WorkflowCommands.jsonEscaped(JSONValue.array([.string(line)]).serialized())
            #expect(WorkflowCommandParser.commands(in: json).isEmpty)
            #expect(try JSONValue.parse(json) == .array([.string(line)]), "the JSON escape changed the value")
            #expect(SecretForms.unescapingMarkup(WorkflowCommands.markupEscaped(line)) == line)
        }
        #expect(WorkflowCommands.visible("##[add-mask]FAILED") == "##\\u{5B}add-mask]FAILED")
        #expect(WorkflowCommands.visible("::add-mask::x") == ":\\u{3A}add-mask:\\u{3A}x")
        #expect(WorkflowCommands.visible(":::") == ":\\u{3A}:")
        #expect(WorkflowCommands.visible("replay: --base-url http://[::1]:8080 and [fe80::1%2]") == "replay: --base-url http://[::1]:8080 and [fe80:\\u{3A}1%2]")
    }

    @Test("a report full of hostile text gives no workflow command in any output but its own annotations")
    func reportOutputs() throws {
        let recorder = ContractRecorder()
        let hostile = HostileText.text
        recorder.fail(group: "g ::x::", contract: "c ##[add-mask]y", ContractFailure(
            message: hostile, caseId: hostile,
            request: ReportedRequest(method: "GET", path: "/p/##[group]x", headers: [ReportedHeader(name: "X", value: hostile)], body: hostile),
            expected: hostile, actual: "500 " + hostile, shrunkInput: .object(JSONObject([("name", .string("::add-mask::FAILED"))])),
            originalInput: .string("##[stop-commands]t"), replay: "petspot-contracts run --base-url http://[::1]:1"))
        recorder.leave(Leftover(id: "::stop-commands::t", microchipNumber: "##[add-mask]1", reason: hostile))
        recorder.note(hostile)
        let report = recorder.report(command: "run", arguments: ["--base-url", "http://[::1]:1"], target: hostile, seed: 1, startedAt: Date())
        let outputs = RenderedOutputs(report)
        for (name, text) in [("console", outputs.console), ("JSON", outputs.json), ("JUnit", outputs.junit), ("HTML", outputs.html),
                             ("annotations", outputs.annotations)] {
            let foreign = WorkflowCommandParser.foreignCommands(in: text)
            #expect(foreign.isEmpty, "\(name): \(foreign.map(\.line))")
        }
        #expect(WorkflowCommandParser.commands(in: outputs.annotations).count == 2, "an ::error and a ::warning")
        // The text is still there for a reader, escaped where a command would start.
        #expect(outputs.console.contains("##\\u{5B}stop-commands]\(HostileText.stopToken)"))
        #expect(outputs.console.contains("--base-url http://[::1]:1"), "the replay line stays copyable")
        let json = try JSONValue.parse(outputs.json)
        #expect(json["notes"]?.arrayValue?.first?.stringValue == DisplayText.sanitized(hostile), "the JSON report reads back the text")
    }

    @Test("run against a server that answers workflow commands: none in the console, annotations, JSON, JUnit or HTML")
    func hostileServer() async throws {
        let server = try HostileServer { _, _ in .inject }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("report.html").path
        let result = await runAgainst(server, ["--github-annotations", "--report-html", html])
        #expect(result.status == 1, "\(result.err)")
        let page = (try? String(contentsOfFile: html, encoding: .utf8)) ?? ""
        #expect(!page.isEmpty)
        for (name, text) in [("stdout", result.out), ("stderr", result.err), ("--report-json", result.json), ("--junit", result.junit),
                             ("--report-html", page)] {
            let foreign = WorkflowCommandParser.foreignCommands(in: text)
            #expect(foreign.isEmpty, "\(name): \(foreign.map(\.line))")
        }
        // The hostile answer was reported (escaped), and annotated.
        #expect(result.out.contains("##\\u{5B}stop-commands]\(HostileText.stopToken)"))
        #expect(result.out.contains("\n::error title="))
    }

    @Test("check --sut with an adapter that writes workflow commands on its output and standard error: none gets through")
    func hostileAdapter() async throws {
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        let errors = HostileText.lines.map { "printf '%s\\n' '\($0)' >&2\n" }.joined()
        try ("echo $$ >> '\(adapter.pidFile.path)'\n" + errors + MisbehavingAdapter.firstAnswerValid + "while read question; do\n"
            + "printf '%s\\n' '##[stop-commands]\(HostileText.stopToken) ::add-mask::FAILED'\ndone\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        let junit = adapter.directory.appendingPathComponent("report.xml").path
        let html = adapter.directory.appendingPathComponent("report.html").path
        let reportPath = adapter.directory.appendingPathComponent("report.json").path
        let result = await runTool([
            "check", "--sut", adapter.command, "--seed", "11", "--no-mock", "--no-progress", "--shrink-seconds", "0", "--cases", "4",
            "--report-json", reportPath, "--junit", junit, "--report-html", html, "--github-annotations",
        ])
        #expect(result.status == 1, "\(result.err)")
        let files = [reportPath, junit, html].map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        #expect(files.allSatisfy { !$0.isEmpty }, "a report file is missing")
        for (name, text) in [("stdout", result.out), ("stderr", result.err), ("--report-json", files[0]), ("--junit", files[1]),
                             ("--report-html", files[2])] {
            let foreign = WorkflowCommandParser.foreignCommands(in: text)
            #expect(foreign.isEmpty, "\(name): \(foreign.map(\.line))")
        }
        #expect(result.err.contains("adapter: ##\\u{5B}stop-commands]\(HostileText.stopToken)"), "\(result.err)")
        #expect(result.out.contains("::error title="))
        #expect(adapter.survivors().isEmpty)
    }
}
