import Foundation
import PetSpotFlowChecks
import PetSpotJSON
import PetSpotRuntime
import PetSpotSubmissionFaults
import PetSpotTestSupport
import Testing

// A protocol version is declared, never read from a failure; setup is never a verdict on the app
// (sut-protocol.md, docs/ADAPTERS.md section 4): `check` against both adapters, each with a
// protocol break, a declared version 1, or an old release.

/// What one `check` run showed: exit code, console, standard error and the JSON report (`nil`
/// when none was written).
struct DeclarationRun {
    let status: Int32
    let out: String
    let err: String
    let report: JSONValue?

    /// The contracts of the report's group `group`, by name: status and skip reason.
    func contracts(of group: String) -> [String: (status: String, reason: String?)] {
        var found: [String: (status: String, reason: String?)] = [:]
        for entry in report?["groups"]?.arrayValue ?? [] where entry["name"]?.stringValue == group {
            for contract in entry["contracts"]?.arrayValue ?? [] {
                guard let name = contract["name"]?.stringValue else { continue }
                found[name] = (contract["status"]?.stringValue ?? "", contract["skipReason"]?.stringValue)
            }
        }
        return found
    }

    /// Every failure message of the report, in every group.
    var failureMessages: [String] {
        (report?["groups"]?.arrayValue ?? []).flatMap { group in
            (group["contracts"]?.arrayValue ?? []).flatMap { contract in
                (contract["failures"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
            }
        }
    }

    /// The report's notes.
    var notes: [String] { (report?["notes"]?.arrayValue ?? []).compactMap(\.stringValue) }

    /// The last line on standard error: a setup error's paragraph.
    var paragraph: String { err.split(separator: "\n").last.map(String.init) ?? "" }
}

/// `words` as one `/bin/sh` command line, each word single-quoted.
func shellLine(_ words: [String]) -> String {
    words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
}

/// Runs `check --sut COMMAND` in-process with the in-process mock (the submission group needs
/// it), a fixed seed and a short shrink, plus `options`. The answer time-out is far above what a
/// loaded machine needs to start a Python adapter: none of these runs waits it out.
func checkDeclaring(_ command: [String], _ options: [String] = []) async -> DeclarationRun {
    let reportPath = FileManager.default.temporaryDirectory.appendingPathComponent("declaration-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: reportPath) }
    let result = await runTool(
        ["check", "--sut", shellLine(command), "--seed", "5", "--sut-timeout", "120", "--no-progress", "--shrink-seconds", "1", "--report-json", reportPath]
            + options)
    let report = (try? Data(contentsOf: URL(fileURLWithPath: reportPath))).flatMap { try? JSONValue.parse($0) }
    return DeclarationRun(status: result.status, out: result.out, err: result.err, report: report)
}

/// A Python filter in front of the example adapter: it forwards every question and answer, but
/// replaces the answer to the `nth` question of protocol version `version` with `replacement`
/// (`ID` in it becomes the question's id). The count starts again with each start of the filter.
struct AnswerReplacingAdapter {
    let directory: URL
    let script: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("replacing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        script = directory.appendingPathComponent("replacing.py")
        try """
            import json, subprocess, sys
            version, nth, replacement = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            inner = subprocess.Popen(sys.argv[4:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            seen = 0
            for line in sys.stdin.buffer:
                if not line.strip(): continue
                question = json.loads(line)
                inner.stdin.write(line)
                inner.stdin.flush()
                answer = inner.stdout.readline()
                if question.get("v") == version:
                    seen += 1
                    if seen == nth: answer = (replacement.replace("ID", str(question["id"])) + "\\n").encode()
                sys.stdout.buffer.write(answer)
                sys.stdout.buffer.flush()
            inner.stdin.close()
            sys.exit(inner.wait())

            """.write(to: script, atomically: true, encoding: .utf8)
    }

    /// The command: the filter around the example adapter.
    func command(version: Int, nth: Int, replacement: String) throws -> [String] {
        let python = try #require(PythonAdapter.python, "no python3")
        let example = try #require(ExampleAdapter.path, "petspot-example-adapter not found beside the test bundle")
        return [python, script.path, String(version), String(nth), replacement, example]
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("adapter protocol declaration", .serialized, .onOwnThreads)
struct AdapterDeclarationTests {
    static let submissionGroup = "submission under faults"
    static let versionOneOnlyNote = "the app's own submission was not checked: the adapter declares protocol version 1 only"

    @Test("crash-on-submit: a crash on the first submission question fails the version 2 protocol contract, naming the crash",
          arguments: SubmissionAdapterKind.runnable)
    func crashOnSubmit(_ kind: SubmissionAdapterKind) async throws {
        let run = await checkDeclaring(try kind.command(["--break", "crash-on-submit"]))
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.out)")
        #expect(failedContracts(try #require(run.report)) == [SubmissionFaultContracts.protocolContract], "\(run.out)")
        let message = try #require(run.failureMessages.first { $0.contains("first submission question") }, "\(run.failureMessages)")
        switch kind {
        case .example:
            #expect(message.hasPrefix("the adapter crashed (exit 70) on its first submission question: "), "\(message)")
            #expect(message.contains("Fatal error: Unexpectedly found nil while unwrapping an Optional value"), "\(message)")
        case .python:
            #expect(message.hasPrefix("the adapter crashed (exit 1) on its first submission question: Traceback (most recent call last):"), "\(message)")
            #expect(message.contains("KeyError: 'baseUrl'"), "the traceback's last line names the exception: \(message)")
        }
        // A crash is not a declaration.
        #expect(!run.out.contains(Self.versionOneOnlyNote), "\(run.out)")
        let others = run.contracts(of: Self.submissionGroup).filter { $0.key != SubmissionFaultContracts.protocolContract }
        #expect(Set(others.keys) == Set(SubmissionFaultContracts.scenarioContracts) && others.values.allSatisfy { $0.status == "skipped" }, "\(others)")
    }

    @Test("no valid answer yet: a banner, garbage or another \"v\" is a setup error (exit 2, one paragraph, no report)", arguments: [
        (SubmissionAdapterKind.example, "banner", "standard output carries answers only; logs go to standard error"),
        (.example, "garbage", "standard output carries answers only; logs go to standard error"),
        (.example, "wrong-v", "the adapter answered version 3; this runner asks version 1 and 2 questions"),
        (.python, "banner", "standard output carries answers only; logs go to standard error"),
        (.python, "wrong-v", "the adapter answered version 3; this runner asks version 1 and 2 questions"),
    ])
    func noValidAnswerYet(_ kind: SubmissionAdapterKind, mode: String, sentence: String) async throws {
        guard SubmissionAdapterKind.runnable.contains(kind) else { return }
        let run = await checkDeclaring(try kind.command(["--break", mode]))
        #expect(run.status == RunnerExitCode.configuration.rawValue, "\(run.out)\n\(run.err)")
        #expect(run.paragraph.hasPrefix("petspot-contracts check: error: the adapter never gave a valid answer: --sut "), "\(run.paragraph)")
        #expect(run.paragraph.contains(sentence), "\(run.paragraph)")
        #expect(run.paragraph.contains("Likely fix: "), "\(run.paragraph)")
        if mode == "banner" { #expect(run.paragraph.contains("PetSpot adapter 2.0 ready"), "the line is quoted: \(run.paragraph)") }
        #expect(run.report == nil, "no contract report for a setup error")
        #expect(!run.out.contains("PASS") && !run.out.contains("FAIL"), "\(run.out)")
    }

    @Test("after one valid answer, a log line on standard output is a protocol failure of the app's adapter (exit 1), not a setup error",
          .enabled(if: PythonAdapter.python != nil, "no python3"))
    func logLineAfterValidAnswers() async throws {
        let filter = try AnswerReplacingAdapter()
        defer { filter.remove() }
        let run = await checkDeclaring(try filter.command(version: 1, nth: 3, replacement: "PetSpot adapter: cache warmed"), ["--no-mock"])
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.err)")
        #expect(failedContracts(try #require(run.report)).contains(FlowAnswerChecks.protocolContract))
        #expect(run.failureMessages.contains { $0.contains("PetSpot adapter: cache warmed") }, "\(run.failureMessages)")
    }

    @Test("--protocol 1: a declared version 1 passes, with the note at the top of the report and the group skipped",
          arguments: SubmissionAdapterKind.runnable)
    func declaredVersionOne(_ kind: SubmissionAdapterKind) async throws {
        let run = await checkDeclaring(try kind.command(["--protocol", "1"]))
        #expect(run.status == RunnerExitCode.success.rawValue, "\(run.out)")
        #expect(run.notes.first?.hasPrefix(Self.versionOneOnlyNote) == true, "\(run.notes)")
        #expect(run.out.contains("note: " + Self.versionOneOnlyNote), "the console summary says it too")
        let group = run.contracts(of: Self.submissionGroup)
        #expect(Set(group.keys) == Set([SubmissionFaultContracts.protocolContract] + SubmissionFaultContracts.scenarioContracts), "\(group)")
        #expect(group.values.allSatisfy { $0.status == "skipped" && $0.reason == "the adapter declares protocol version 1 only" }, "\(group)")
    }

    @Test("--protocol 1 with --require-submission: the declared version 1 fails the run", arguments: SubmissionAdapterKind.runnable)
    func requiredSubmission(_ kind: SubmissionAdapterKind) async throws {
        let run = await checkDeclaring(try kind.command(["--protocol", "1"]), ["--require-submission"])
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.out)")
        #expect(failedContracts(try #require(run.report)) == [SubmissionFaultContracts.protocolContract], "\(run.out)")
        #expect(run.failureMessages.contains { $0.contains("declares protocol version 1 only") && $0.contains("--require-submission") },
                "\(run.failureMessages)")
        #expect(run.notes.first?.hasPrefix(Self.versionOneOnlyNote) == true, "\(run.notes)")
    }

    @Test("--require-submission without the submission group is a usage error naming the flag", arguments: [
        ["--no-mock"], ["--submission-scenarios", "0"],
    ])
    func requireSubmissionNeedsTheGroup(_ options: [String]) async throws {
        let result = await runTool(["check", "--require-submission", "--no-progress"] + options)
        #expect(result.status == RunnerExitCode.usage.rawValue, "\(result.err)")
        #expect(result.err.contains("--require-submission") && result.err.contains(options[0]), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test("unsupported after version 2 answers is a protocol failure, not a declaration", .enabled(if: PythonAdapter.python != nil, "no python3"))
    func unsupportedAfterVersionTwo() async throws {
        let filter = try AnswerReplacingAdapter()
        defer { filter.remove() }
        let run = await checkDeclaring(try filter.command(version: 2, nth: 2, replacement: #"{"v": 1, "id": ID, "outcome": "unsupported"}"#))
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.out)")
        #expect(failedContracts(try #require(run.report)).contains(SubmissionFaultContracts.protocolContract), "\(run.out)")
        #expect(run.failureMessages.contains { $0.contains("answered \"unsupported\" to a version 2 question after it had answered version 2 questions") },
                "\(run.failureMessages)")
        #expect(!run.out.contains(Self.versionOneOnlyNote))
    }

    @Test("unsupported to a version 1 question is a protocol failure", .enabled(if: PythonAdapter.python != nil, "no python3"))
    func unsupportedToVersionOne() async throws {
        let filter = try AnswerReplacingAdapter()
        defer { filter.remove() }
        let run = await checkDeclaring(try filter.command(version: 1, nth: 2, replacement: #"{"v": 1, "id": ID, "outcome": "unsupported"}"#), ["--no-mock"])
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.err)")
        #expect(failedContracts(try #require(run.report)).contains(FlowAnswerChecks.protocolContract))
        #expect(run.failureMessages.contains { $0.contains("answered \"unsupported\" to a version 1 question, which every adapter speaks") },
                "\(run.failureMessages)")
    }

    @Test("--release 1.0: the missing Found flow fails check as one cause, named once", arguments: SubmissionAdapterKind.runnable)
    func firstBuildsHaveNoFoundFlow(_ kind: SubmissionAdapterKind) async throws {
        let run = await checkDeclaring(try kind.command(["--release", "1.0"]))
        #expect(run.status == RunnerExitCode.contractFailed.rawValue, "\(run.out)")
        let report = try #require(run.report)
        let missingFlow = "the app has no Found flow (it answered unavailable)"
        let causes = distinctCauses(report).filter { $0.kind == missingFlow }
        #expect(causes.count == 1, "\(distinctCauses(report))")
        #expect(causes.first?.fields == [])
        let counted = (report["distinctFailures"]?.arrayValue ?? []).first { $0["kind"]?.stringValue == missingFlow }?["cases"]?.numberValue?.intValue
        #expect((counted ?? 0) > 100, "every Found case is one cause: \(String(describing: counted))")
        #expect(run.failureMessages.filter { $0.contains(missingFlow) }.count == 1, "\(run.failureMessages.filter { $0.contains("Found flow") })")
        #expect(failedContracts(report).contains(FlowAnswerChecks.sameAsReferenceContract))
        // No answer of the build is a protocol failure; 1.0 speaks version 1 only, and says so.
        #expect(!failedContracts(report).contains(FlowAnswerChecks.protocolContract), "\(failedContracts(report))")
        #expect(run.notes.first?.hasPrefix(Self.versionOneOnlyNote) == true, "\(run.notes)")
    }
}
