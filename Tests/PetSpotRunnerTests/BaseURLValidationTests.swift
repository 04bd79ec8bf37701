import Foundation
import PetSpotRuntime
import Testing

/// `--base-url` through the command line: what the transport cannot use is refused when the
/// command line is read (exit 2, naming the fault), never found out later (exit 3).
@Suite("--base-url validation")
struct BaseURLValidationTests {
    @Test("a base URL the transport could not use exits 64 (usage) naming --base-url and the fault", arguments: [
        ("http://[::1", "--base-url"),
        ("http://[zz]:80", "is not an IPv6 address"),
        ("http://::1:80", "--base-url"),
        ("http://exa mple.com", "a space or control character at byte 10"),
        ("http://host\u{1B}[2J", "control character at byte 11"),
        ("http://ho%20st", "the host may hold only"),
        ("http://host:0", "port 0 is outside 1-65535"),
        ("http://host?x=1", "no query or fragment"),
    ])
    func badBaseURLs(text: String, fragment: String) async {
        let result = await runTool(["run", "--base-url", text, "--no-progress", "--timeout", "1"])
        #expect(result.status == RunnerExitCode.usage.rawValue, "\(result.err)")
        #expect(result.err.contains("--base-url"))
        #expect(result.err.contains(fragment), "\(result.err)")
        #expect(!result.err.contains("\u{1B}"))
    }

    @Test("an IPv6 literal is accepted and tried: a failure names the address and the reason")
    func ipv6() async {
        // Loopback IPv6 may not be available: whatever the outcome of the connection, the
        // message names the address tried and why it failed.
        let result = await runTool(["run", "--base-url", "http://[::1]:1", "--no-progress", "--timeout", "2"])
        #expect(result.status == 3, "\(result.err)")
        #expect(result.err.contains("cannot reach http://[::1]:1: no connection: connect to [::1]:1: "), "\(result.err)")
    }
}
