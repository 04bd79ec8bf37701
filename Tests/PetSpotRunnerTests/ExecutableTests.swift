import Foundation
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotRuntime
import PetSpotProcess
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `petspot-contracts` executable, beside the test bundle.
enum ToolBinary {
    static let path = BuiltProduct.path("petspot-contracts")
}

@Suite("petspot-contracts executable", .serialized, .onOwnThreads)
struct ExecutableTests {
    @Test("mock prints its listening line, serves, and stops cleanly on SIGTERM")
    func mockServes() async throws {
        let binary = try #require(ToolBinary.path)
        let mock = try ChildProcess(binary, ["mock", "--port", "0", "--profile", "production"], output: .pipe)
        // A time-out only against a hang: the line comes as soon as the mock listens.
        let line = try #require(mock.readLine(timeout: 300), "no listening line: \(String(decoding: mock.collectedError(waitingUpTo: 0), as: UTF8.self))")
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let result = await runTool(["run", "--base-url", "http://127.0.0.1:\(port)", "--cases", "0", "--no-progress"])
        #expect(result.status == 0 || result.status == 1)
        #expect(result.out.contains("health answers 200"))
        mock.send(SIGTERM)
        let exit = mock.waitForExit(timeout: 300)
        #expect(exit?.status == 0, "\(String(describing: exit))")
    }

    @Test("bowtie answers start, dialect, run and stop on standard streams")
    func bowtie() throws {
        let binary = try #require(ToolBinary.path)
        let lines = [
            #"{"cmd": "start", "version": 1}"#,
            #"{"cmd": "dialect", "dialect": "https://json-schema.org/draft/2020-12/schema"}"#,
            #"{"cmd": "run", "seq": 1, "case": {"description": "min", "schema": {"minimum": 2}, "tests": [{"description": "a", "instance": 1}, {"description": "b", "instance": 3}]}}"#,
            #"{"cmd": "stop"}"#,
        ]
        let outcome = try ChildProcess.run(binary, ["bowtie"], input: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(outcome.inputError == nil, "\(String(describing: outcome.inputError))")
        let replies = outcome.outputText.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        #expect(replies.count == 3)
        #expect(replies.count == 3 && replies[1]["ok"] == true)
        #expect(replies.count == 3 && replies[2]["results"]?[0]?["valid"] == false && replies[2]["results"]?[1]?["valid"] == true)
    }

    @Test("the executable maps a usage error to exit 2 and one line on standard error")
    func usageErrorExitCode() throws {
        let binary = try #require(ToolBinary.path)
        let outcome = try ChildProcess.run(binary, ["run", "--base-url", "nope"])
        #expect(outcome.code == RunnerExitCode.usage.rawValue)
        #expect(outcome.errorText.split(separator: "\n").count == 1)
        #expect(outcome.errorText.contains("invalid URL 'nope' for --base-url"))
    }
}
