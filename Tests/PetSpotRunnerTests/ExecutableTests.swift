import Foundation
import PetSpotHTTPTestSupport
import PetSpotJSON
import PetSpotRuntime
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

@Suite("petspot-contracts executable", .serialized)
struct ExecutableTests {
    @Test("mock prints its listening line, serves, and stops cleanly on SIGTERM")
    func mockServes() async throws {
        let binary = try #require(ToolBinary.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["mock", "--port", "0", "--profile", "production"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = try #require(Self.readLine(output.fileHandleForReading))
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let result = await runTool(["run", "--base-url", "http://127.0.0.1:\(port)", "--cases", "0", "--no-progress"])
        #expect(result.status == 0 || result.status == 1)
        #expect(result.out.contains("health answers 200"))
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
    }

    @Test("bowtie answers start, dialect, run and stop on standard streams")
    func bowtie() throws {
        let binary = try #require(ToolBinary.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["bowtie"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let lines = [
            #"{"cmd": "start", "version": 1}"#,
            #"{"cmd": "dialect", "dialect": "https://json-schema.org/draft/2020-12/schema"}"#,
            #"{"cmd": "run", "seq": 1, "case": {"description": "min", "schema": {"minimum": 2}, "tests": [{"description": "a", "instance": 1}, {"description": "b", "instance": 3}]}}"#,
            #"{"cmd": "stop"}"#,
        ]
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let replies = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        #expect(replies.count == 3)
        #expect(replies.count == 3 && replies[1]["ok"] == true)
        #expect(replies.count == 3 && replies[2]["results"]?[0]?["valid"] == false && replies[2]["results"]?[1]?["valid"] == true)
    }

    @Test("the executable maps a usage error to exit 2 and one line on standard error")
    func usageErrorExitCode() throws {
        let binary = try #require(ToolBinary.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["run", "--base-url", "nope"]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == RunnerExitCode.usage.rawValue)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.contains("invalid URL 'nope' for --base-url"))
    }

    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
