import Foundation
import PetSpotJSON
import PetSpotRunner
import PetSpotRuntime
import PetSpotProcess
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Misbehaving adapters written as small shell scripts: each records its own pid (which is its
/// process group once the runner starts it in a group of its own) and the pids of the children
/// it forks in a file, so that the tests can check that nothing outlives the run.
struct MisbehavingAdapter {
    let directory: URL
    let script: URL
    let pidFile: URL

    /// An adapter whose body (after recording its pid) is `body`, a POSIX shell script.
    init(_ body: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("adapter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        script = directory.appendingPathComponent("adapter.sh")
        pidFile = directory.appendingPathComponent("pids")
        try ("echo $$ >> '\(pidFile.path)'\n" + body).write(to: script, atomically: true, encoding: .utf8)
    }

    /// The `--sut` command: the script is exec'd, so the adapter process is the script's shell.
    var command: String { "exec /bin/sh '\(script.path)'" }

    /// A line of the script that forks `sleep` children recording their pids.
    var forkChildren: String {
        "sleep 60 & echo $! >> '\(pidFile.path)'\nsleep 60 & echo $! >> '\(pidFile.path)'\n"
    }

    /// Lines of the script that read the first question and answer it validly (a report blocked at
    /// the photo step): an adapter that has not given one valid answer is a setup error, so a
    /// test about a failing adapter's answers starts with this one.
    static let firstAnswerValid = "read question\nid=$(printf '%s\\n' \"$question\" | sed 's/^{\"v\":[0-9]*,\"id\":\\([0-9]*\\).*/\\1/')\n"
        + "printf '{\"v\":1,\"id\":%s,\"outcome\":\"blocked\",\"step\":\"photo\",\"fields\":[\"photo\"]}\\n' \"$id\"\n"

    /// Every pid recorded so far.
    var pids: [pid_t] {
        ((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Checks up to `polls` times, 20 ms apart, for every recorded process and group to be
    /// gone (a count far above what an idle machine needs, not a measure of time); returns
    /// those left.
    func survivors(polls: Int = 1500) -> [pid_t] {
        var left: [pid_t] = []
        for _ in 0..<polls {
            left = pids.filter(ProcessState.isAlive) + pids.flatMap(ProcessGroups.livingMembers(of:))
            if left.isEmpty { return [] }
            usleep(20_000)
        }
        return Array(Set(left))
    }

    /// Kills whatever is left and removes the files.
    func cleanUp() {
        for pid in pids {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `check` in-process against `adapter`; returns the exit code, console output, standard
/// error and report.
/// Four cases by default: too few to meet the boundary coverage (so never a passing run), enough
/// to see a misbehaviour; `cases: nil` runs the default count, for adapters that should pass.
func checkMisbehaving(
    _ adapter: MisbehavingAdapter, _ options: [String] = [], cases: Int? = 4
) async -> (status: Int32, out: String, err: String, json: String) {
    let reportPath = adapter.directory.appendingPathComponent("report.json").path
    let result = await runTool([
        "check", "--sut", adapter.command, "--seed", "11", "--no-mock", "--no-progress", "--shrink-seconds", "0",
        "--report-json", reportPath,
    ] + (cases.map { ["--cases", String($0)] } ?? []) + options)
    return (result.status, result.out, result.err, (try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? "")
}

@Suite("misbehaving adapters", .serialized, .onOwnThreads)
struct MisbehavingAdapterTests {
    @Test("an adapter that forks children and crashes is reported as crashed at once, and no process of it is left")
    func forksAndCrashes() async throws {
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        try ("echo $$ >> '\(adapter.pidFile.path)'\n" + adapter.forkChildren + "read question\nkill -s SEGV $$\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        let result = await checkMisbehaving(adapter, ["--sut-timeout", "60"])
        // It never answered: a setup error, after a second start (the first crash could have
        // been that question's). Read as time-outs, the crashes would say "did not answer".
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        #expect(result.err.contains("was killed by SIGSEGV before answering its first question (on each of 2 starts)"), "\(result.err)")
        #expect(!result.err.contains("did not answer"))
        #expect(adapter.pids.count == 6, "two starts, each with two children: \(adapter.pids)")
        #expect(adapter.survivors().isEmpty, "left running: \(adapter.survivors())")
    }

    /// A descriptor the adapter inherits stays open as long as it lives: another test's pipe
    /// then never reaches its end, and that test waits (it did, for 25 minutes, under load).
    @Test("the adapter inherits none of the runner's descriptors but its standard streams")
    func inheritsOnlyStandardStreams() async throws {
        #if os(Linux)
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        let example = try #require(ExampleAdapter.path)
        let listing = adapter.directory.appendingPathComponent("descriptors")
        try ("echo $$ >> '\(adapter.pidFile.path)'\n"
            + "for f in /proc/$$/fd/*; do n=${f##*/}; [ \"$n\" -gt 2 ] && readlink \"$f\" >> '\(listing.path)'; done\n"
            + "exec '\(example)'\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        // A pipe of the test process without close-on-exec, as Foundation's Pipe makes them.
        let open = Pipe()
        let result = await checkMisbehaving(adapter)
        withExtendedLifetime(open) {}
        #expect(result.status == 1, "\(result.err)")
        let inherited = ((try? String(contentsOf: listing, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(!inherited.contains { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") }, "the adapter holds \(inherited)")
        #endif
    }

    @Test("a hanging adapter and its children are stopped with their whole process group")
    func hangs() async throws {
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        try ("echo $$ >> '\(adapter.pidFile.path)'\n" + adapter.forkChildren + "exec sleep 60\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        let result = await checkMisbehaving(adapter, ["--sut-timeout", "0.3"])
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        #expect(result.err.contains("did not answer its first question within 0.3 s"), "\(result.err)")
        #expect(!adapter.pids.isEmpty)
        #expect(adapter.survivors().isEmpty, "left running: \(adapter.survivors())")
    }

    @Test("an adapter that exits 0 at end of input but leaves a child behind: the child is stopped too")
    func leavesChildBehind() async throws {
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        let example = try #require(ExampleAdapter.path)
        // The example adapter answers; a background child (holding no pipe) lingers after it exits.
        try ("echo $$ >> '\(adapter.pidFile.path)'\n(sleep 60 </dev/null >/dev/null 2>&1) & echo $! >> '\(adapter.pidFile.path)'\n'\(example)'\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        let result = await checkMisbehaving(adapter, cases: nil)
        #expect(result.status == 0, "\(result.out)")
        #expect(adapter.pids.count == 2)
        #expect(adapter.survivors().isEmpty, "left running: \(adapter.survivors())")
    }

    @Test("escape codes and a 15 MB answer line are escaped and cut in the console and the report")
    func escapesAndHugeLines() async throws {
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        try ("echo $$ >> '\(adapter.pidFile.path)'\n" + MisbehavingAdapter.firstAnswerValid + "while read question; do\n"
            + "printf '\\033[2J\\033[31m'; head -c 15000000 /dev/zero | tr '\\0' a; printf '\\n'\ndone\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        // Writing 15 MB through a pipe takes seconds on a loaded machine; the time-out is not
        // what this test is about, so it is far above that.
        let result = await checkMisbehaving(adapter, ["--sut-timeout", "120"])
        #expect(result.status == 1)
        #expect(!result.out.contains("\u{1B}"), "a raw escape code reached the console")
        #expect(result.out.contains("\\u{1B}[2J\\u{1B}[31m"))
        #expect(result.out.contains("(15000009 bytes in all)"))
        #expect(result.out.utf8.count < 1_000_000, "the console got \(result.out.utf8.count) bytes")
        #expect(result.json.utf8.count < 1_000_000, "the JSON report has \(result.json.utf8.count) bytes")
        #expect(!result.json.lowercased().contains("\\u001b"), "the JSON report keeps the escape code")
        #expect(adapter.survivors().isEmpty)
    }

    @Test("the adapter's standard error reaches ours escaped, line by line, cut at a few KB")
    func standardErrorIsEscaped() throws {
        let binary = try #require(ToolBinary.path)
        let example = try #require(ExampleAdapter.path)
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        try ("echo $$ >> '\(adapter.pidFile.path)'\nprintf 'boom \\033[2J\\033]0;title\\007 done\\n' >&2\n"
            + "head -c 100000 /dev/zero | tr '\\0' b >&2; printf '\\n' >&2\nexec '\(example)'\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        let outcome = try WatchedChild.run(binary, [
            "check", "--sut", adapter.command, "--seed", "1", "--no-mock", "--no-progress",
        ])
        #expect(outcome.status == 0, "\(outcome.out)")
        #expect(!outcome.err.contains("\u{1B}"), "a raw escape code reached standard error")
        #expect(!outcome.err.contains("\u{07}"))
        #expect(outcome.err.contains("adapter: boom \\u{1B}[2J\\u{1B}]0;title\\u{7} done"))
        #expect(outcome.err.contains("(100000 bytes in all)"))
        #expect(outcome.err.utf8.count < 20_000)
    }

    @Test("SIGTERM or SIGINT to check stops the adapter's whole process group and writes the report so far", arguments: [SIGTERM, SIGINT])
    func signalToCheck(signal: Int32) throws {
        let binary = try #require(ToolBinary.path)
        let adapter = try MisbehavingAdapter("")
        defer { adapter.cleanUp() }
        try ("echo $$ >> '\(adapter.pidFile.path)'\n" + adapter.forkChildren + "exec sleep 60\n")
            .write(to: adapter.script, atomically: true, encoding: .utf8)
        // The adapter never answers within its 600 s: only the signal can end this run.
        let child = try WatchedChild(binary, [
            "check", "--sut", adapter.command, "--sut-timeout", "600", "--cases", "3", "--no-mock", "--no-progress",
        ])
        // Counted polls, far above what even a loaded machine needs to start them.
        for _ in 0..<6000 {
            if adapter.pids.count >= 3 { break }
            usleep(20_000)
        }
        #expect(adapter.pids.count == 3)
        child.send(signal)
        let outcome = child.wait(upTo: 300)
        #expect(outcome.status == 128 + signal, "\(outcome.err)")
        #expect(outcome.signal == nil, "the runner was killed by the signal instead of handling it")
        #expect(outcome.err.contains("received: no new case is started"), "\(outcome.err)")
        #expect(outcome.out.contains("note: interrupted by \(signal == SIGINT ? "SIGINT" : "SIGTERM")"), "\(outcome.out)")
        #expect(outcome.out.contains("FAILED"), "an interrupted check never passes")
        #expect(adapter.survivors().isEmpty, "left running: \(adapter.survivors())")
    }

    @Test("SIGTERM to a long check against the reference model stops its flow cases and writes the report so far")
    func signalToLongCheck() throws {
        let binary = try #require(ToolBinary.path)
        let child = try WatchedChild(binary, ["check", "--cases", "100000", "--budget", "600", "--seed", "3", "--no-progress"])
        // Once the runner catches SIGTERM (its only handler here is the check's own) and has
        // worked a while since (the flow cases run for minutes): events, not a guessed time.
        #expect(child.waitUntilCatching(SIGTERM))
        #expect(child.waitForCPU(seconds: 1))
        child.send(SIGTERM)
        let outcome = child.wait(upTo: 300)
        #expect(outcome.status == 143, "\(outcome.err)")
        #expect(outcome.err.contains("SIGTERM received: no new case is started"))
        #expect(outcome.out.contains("cases (cancelled)"), "the coverage contract says the run was stopped")
        #expect(outcome.out.contains("note: interrupted by SIGTERM; not run: regressions"))
        #expect(outcome.out.contains("FAILED"))
        // Stopped early: far fewer cases than the 100,000 asked for (judged by cases, not time).
        let stopped = outcome.out.firstRange(of: #/stopped after (\d+) cases \(cancelled\)/#).flatMap { Int(outcome.out[$0].split(separator: " ")[2]) }
        #expect(stopped.map { $0 < 100_000 } == true, "\(String(describing: stopped))")
    }

    @Test("SIGTERM to check before its first group: nothing run, and the report fails (never OK with nothing checked)")
    func signalBeforeAnyGroup() throws {
        let binary = try #require(ToolBinary.path)
        let child = try WatchedChild(binary, ["check", "--seed", "3", "--no-progress"])
        #expect(child.waitUntilCatching(SIGTERM))
        child.send(SIGTERM)
        let outcome = child.wait(upTo: 300)
        #expect(outcome.status == 143, "\(outcome.err)")
        #expect(outcome.out.contains("note: interrupted by SIGTERM; not run: "), "\(outcome.out)")
        #expect(outcome.out.contains("FAIL  \(InterruptedRun.contract)"), "\(outcome.out)")
        #expect(outcome.out.split(separator: "\n").last?.hasPrefix("FAILED: ") == true, "\(outcome.out)")
    }

    @Test("an unwritable report path fails check before the adapter starts, not after the failures")
    func unwritableReportInCheck() async throws {
        let adapter = try MisbehavingAdapter("exec sleep 60\n")
        defer { adapter.cleanUp() }
        let result = await runTool([
            "check", "--sut", adapter.command, "--cases", "3", "--no-mock", "--no-progress",
            "--junit", "/nonexistent-directory-\(UUID().uuidString)/report.xml",
        ])
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        #expect(result.err.contains("cannot write the --junit file"))
        #expect(result.out.isEmpty)
        #expect(adapter.pids.isEmpty, "the adapter was started")
    }
}
