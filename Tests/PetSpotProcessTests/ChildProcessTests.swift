import Foundation
import PetSpotProcess
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("child processes", .onOwnThreads)
struct ChildProcessTests {
    /// An error thrown on purpose, to leave a scope the way a failed `#require` does.
    struct Planned: Error {}

    @Test("a write to a child that stopped reading throws a broken pipe, and the test process lives on")
    func writeToGoneChild() throws {
        // One child exits without reading; the other reads a little, then exits: the rest of
        // the megabyte finds no reader.
        let child = try ChildProcess("/bin/sh", ["-c", "exit 0"])
        let bytes = [UInt8](repeating: 0x61, count: 1 << 20)
        #expect(child.waitForExit(timeout: 300)?.status == 0)
        #expect(throws: ProcessError.inputClosed(written: 0, of: bytes.count)) { try child.write(bytes) }
        let reading = try ChildProcess("/bin/sh", ["-c", "exec head -c 10 > /dev/null"])
        do {
            try reading.write(bytes)
            Issue.record("1 MiB went to a child that reads 10 bytes")
        } catch {
            guard case .inputClosed(let written, let total) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(written < total, "\(error)")
            #expect(error.description.contains("broken pipe"))
        }
    }

    @Test("run writes the input, collects both outputs and reports the exit status")
    func runCollects() throws {
        let input = Array(String(repeating: "line\n", count: 50_000).utf8)
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "wc -l; echo oops >&2; exit 3"], input: input)
        #expect(outcome.code == 3)
        #expect(outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "50000")
        #expect(outcome.errorText == "oops\n")
        #expect(outcome.inputError == nil)
        #expect(!outcome.wasTerminated)
    }

    @Test("a child's input and output can be files; an existing output file is replaced")
    func fileStreams() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in").path, output = directory.appendingPathComponent("out").path
        try Data("one\ntwo\n".utf8).write(to: URL(fileURLWithPath: input))
        // An output file that exists is replaced, not appended to or partly overwritten.
        try Data("an older and longer output\n".utf8).write(to: URL(fileURLWithPath: output))
        let child = try ChildProcess.shell("tr a-z A-Z; echo done >&2", input: .file(input), output: .file(output), error: .pipe)
        #expect(child.readErrorLine(timeout: 300) == "done")
        #expect(child.waitForExit(timeout: 300)?.status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "ONE\nTWO\n")
    }

    @Test("the child's standard streams are pipes to us or /dev/null, never our own unless asked for")
    func streamsAreNotOurs() throws {
        #if os(Linux)
        let child = try ChildProcess("/bin/sleep", ["600"])
        let nulls = try ChildProcess("/bin/sleep", ["600"], input: .null, output: .null, error: .null)
        let ours = try ChildProcess("/bin/sleep", ["600"], input: .inherited, output: .inherited, error: .inherited)
        func link(_ pid: pid_t, _ descriptor: Int) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
        }
        for descriptor in 0...2 {
            let its = try #require(link(child.pid, descriptor))
            #expect(its.hasPrefix("pipe:"), "descriptor \(descriptor): \(its)")
            #expect(its != link(getpid(), descriptor), "descriptor \(descriptor) is this process's own")
            #expect(link(nulls.pid, descriptor) == "/dev/null")
            #expect(link(ours.pid, descriptor) == link(getpid(), descriptor), "asked for, descriptor \(descriptor) is ours")
        }
        #endif
    }

    /// A descriptor a child inherits stays open as long as it lives: whoever waits for that
    /// pipe's end waits as long (a `mock` holding `swift test`'s pipe hung the run).
    @Test("the child inherits none of our descriptors but its three standard streams")
    func inheritsOnlyStandardStreams() throws {
        #if os(Linux)
        // A pipe of ours without close-on-exec, as Foundation's Pipe makes them.
        var held: [Int32] = [-1, -1]
        #expect(pipe(&held) == 0)
        defer { PipeIO.close(held) }
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", #"for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && readlink "$f"; done; exit 0"#])
        let inherited = outcome.outputText.split(separator: "\n").filter { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") }
        #expect(inherited.isEmpty, "the child holds \(inherited)")
        #expect(outcome.code == 0, "\(outcome.errorText)")
        #endif
    }

    @Test("terminate ends the child's whole process group, a background grandchild included")
    func terminateEndsTheGroup() throws {
        let child = try ChildProcess.shell("sleep 600 & echo $!; wait", output: .pipe)
        let grandchild = try #require(child.readLine(timeout: 300).flatMap { pid_t($0) }, "no pid from the shell")
        defer { killLeftover(grandchild, group: child.pid) }
        #expect(ProcessState.read(grandchild)?.group == child.pid, "the child is not its group's leader")
        let exit = child.terminate()
        #expect(exit?.signal == SIGTERM, "\(String(describing: exit))")
        #expect(eventually { !ProcessState.isAlive(grandchild) }, "the grandchild \(grandchild) outlived its group's termination")
    }

    @Test("a child dies with the object that started it, when the scope is left by a thrown error")
    func diesWithItsObject() throws {
        var started: pid_t = 0
        func startThenFail() throws {
            let child = try ChildProcess("/bin/sleep", ["600"])
            started = child.pid
            throw Planned()
        }
        #expect(throws: Planned.self) { try startThenFail() }
        #expect(started > 0)
        defer { killLeftover(started, group: started) }
        #expect(eventually { !ProcessState.isAlive(started) }, "the child \(started) outlived its ChildProcess")
    }

    @Test("a program that cannot be started is an error naming it, not a crash")
    func missingProgram() {
        #expect(throws: ProcessError.system(operation: "posix_spawn /nonexistent/program", code: ENOENT)) {
            try ChildProcess("/nonexistent/program")
        }
    }
}
