import Foundation
import PetSpotBackendGroups
@testable import PetSpotCLI
import PetSpotConcurrency
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
@testable import PetSpotReport
import PetSpotRunner
import PetSpotRuntime
import PetSpotTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `petspot-contracts run` in-process against `server` with `arguments`; returns the exit
/// code, the console output and the texts of the JSON and JUnit reports (empty when not written).
/// The profile is given (the server's backend's, production unless `arguments` say otherwise), so
/// no profile probe reaches the hostile server before the contracts.
func runAgainst(
    _ server: HostileServer, baseURL: String? = nil, adminToken: String? = MockBackend.defaultAdminToken, _ arguments: [String] = []
) async -> (status: Int32, out: String, err: String, json: String, junit: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let jsonPath = directory.appendingPathComponent("report.json").path
    let junitPath = directory.appendingPathComponent("report.xml").path
    var words = [
        "run", "--base-url", baseURL ?? server.url, "--cases", "1", "--seed", "7", "--no-progress", "--timeout", "3",
        "--report-json", jsonPath, "--junit", junitPath,
    ]
    if let adminToken { words += ["--admin-token", adminToken] }
    if !arguments.contains("--profile") { words += ["--profile", server.backend.profile.rawValue] }
    let result = await runTool(words + arguments)
    let json = (try? String(contentsOfFile: jsonPath, encoding: .utf8)) ?? ""
    let junit = (try? String(contentsOfFile: junitPath, encoding: .utf8)) ?? ""
    return (result.status, result.out, result.err, json, junit)
}

/// The failures of contract `name` (any group) in a JSON report text.
func failures(of name: String, in json: String) -> [JSONValue] {
    guard let report = try? JSONValue.parse(json) else { return [] }
    var found: [JSONValue] = []
    for group in report["groups"]?.arrayValue ?? [] {
        for contract in group["contracts"]?.arrayValue ?? [] where contract["name"]?.stringValue == name {
            found += contract["failures"]?.arrayValue ?? []
        }
    }
    return found
}

/// Every failure message in a JSON report text.
func failureMessages(in json: String) -> [String] {
    guard let report = try? JSONValue.parse(json) else { return [] }
    var messages: [String] = []
    for group in report["groups"]?.arrayValue ?? [] {
        for contract in group["contracts"]?.arrayValue ?? [] {
            for failure in contract["failures"]?.arrayValue ?? [] {
                if let message = failure["message"]?.stringValue { messages.append(message) }
            }
        }
    }
    return messages
}

/// The notes of a JSON report text.
func notes(in json: String) -> [String] {
    (try? JSONValue.parse(json))?["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
}

/// A text searched for secrets with `strstr` (reports are large and there are many secrets; the
/// texts hold no NUL).
struct SearchableText {
    let bytes: [CChar]

    init(_ text: String) {
        bytes = Array(text.utf8CString)
    }

    /// Whether the text contains `secret` not directly between digits (a 6-digit password inside
    /// a longer number, such as a microchip, is another number).
    func contains(secret: String) -> Bool {
        guard !secret.isEmpty else { return false }
        let digits = secret.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let isDigit = { (c: CChar) in c >= 0x30 && c <= 0x39 }
        return bytes.withUnsafeBufferPointer { haystack in
            secret.withCString { needle in
                let start = haystack.baseAddress!
                let length = strlen(needle)
                var cursor = start
                while let found = strstr(cursor, needle) {
                    let before: CChar = found == start ? 0 : found[-1]
                    if !(digits && (isDigit(before) || isDigit(found[length]))) { return true }
                    cursor = UnsafePointer(found + 1)
                }
                return false
            }
        }
    }
}

@Suite("run against a hostile server", .serialized, .onOwnThreads)
struct HostileServerTests {
    static let createPath = "/api/v1/announcements"

    @Test("a redirect to another origin is never followed: nothing reaches it, the contract gets the 3xx, the report notes it")
    func crossOriginRedirect() async throws {
        let elsewhere = try HostileServer()
        defer { elsewhere.stop() }
        let other = elsewhere.url
        let deletes = Locked(0)
        let server = try HostileServer { request, _ in
            if request.target == "/api/health" { return .redirect(status: 302, location: "\(other)/api/health") }
            // The first delete is the admin token's check: a redirect there stops the run before anything is created.
            if request.method == "DELETE", deletes.withLock({ count -> Bool in
                count += 1
                return count > 1
            }) {
                return .redirect(status: 307, location: "\(other)\(request.target)")
            }
            if request.target.hasSuffix("/photos") { return .redirect(status: 308, location: "\(other)\(request.target)") }
            return .proxy
        }
        defer { server.stop() }
        let result = await runAgainst(server)
        #expect(elsewhere.requests.isEmpty, "requests reached the other origin: \(elsewhere.requests.map(\.head))")
        #expect(result.status == 1)
        let health = failures(of: HealthContracts.answers, in: result.json)
        #expect(health.first?["message"]?.stringValue == "expected 200, got 302")
        let notes = notes(in: result.json)
        #expect(notes.contains { $0.contains("GET /api/health answered 302") && $0.contains("another origin") && $0.contains("not followed") })
        #expect(notes.contains { $0.contains("DELETE /api/admin/v1/announcements/") && $0.contains("another origin") })
        #expect(result.out.contains("another origin"))
        // The deletes that were redirected did not happen: what was created is listed.
        #expect(result.out.contains("left on target"))
    }

    @Test("a same-origin redirect is followed for GET only; a redirected POST gets its 3xx")
    func sameOriginRedirect() async throws {
        let posts = Locked(0)
        let server = try HostileServer { request, _ in
            if request.method == "GET", request.target.hasPrefix("/api/v1/announcements/"), !request.target.contains("?") {
                return .redirect(status: 301, location: "\(request.target)?moved=1")
            }
            if request.method == "POST", request.target == Self.createPath, !request.isProfileProbe {
                let first = posts.withLock { count -> Bool in
                    count += 1
                    return count == 1
                }
                if first { return .redirect(status: 307, location: "/api/v1/announcements?again=1") }
            }
            return .proxy
        }
        defer { server.stop() }
        // One group at a time: the first create is the submission group's.
        let result = await runAgainst(server, ["--cases", "2", "--concurrency", "1"])
        #expect(result.status == 1)
        let creates = failures(of: SubmissionContracts.create, in: result.json)
        #expect(creates.first?["message"]?.stringValue == "expected 201, got 307")
        #expect(server.requests.allSatisfy { !($0.method == "POST" && $0.target.contains("again=1")) }, "a POST was re-sent")
        let notes = notes(in: result.json)
        #expect(notes.contains { $0.contains("POST /api/v1/announcements answered 307") && $0.contains("only GET is") })
        #expect(notes.contains { $0.contains("answered 301") && $0.contains("same origin: followed") })
        // The followed GETs reached their new place.
        #expect(server.requests.contains { $0.method == "GET" && $0.target.hasSuffix("?moved=1") })
    }

    /// The trickle lasts 20 s and every byte comes well within any per-read timeout, so a client
    /// without an overall deadline per request reads it to its end; with one, it leaves after
    /// about --timeout (1.5 s, some 8 bytes). Judged by what the server saw (the client left
    /// before the last byte), not by a wall clock a loaded machine can stretch.
    @Test("a server that trickles one byte at a time fails at --timeout, long before its 20 s trickle ends", arguments: [false, true])
    func trickle(inBody: Bool) async throws {
        let server = try HostileServer { request, _ in
            request.target == "/api/health" || (inBody && request.method == "POST") ? .trickle(interval: 0.2, count: 100) : .proxy
        }
        defer { server.stop() }
        let result = await runTool(["run", "--base-url", server.url, "--profile", "production", "--timeout", "1.5", "--cases", "0", "--no-progress"])
        #expect(result.status == 3)
        #expect(result.err.contains("timed out"))
        if inBody {
            // The probe itself trickled: no profile is claimed for a target that did not answer.
            #expect(result.err.contains("cannot reach \(server.url)"), "\(result.err)")
            #expect(!result.out.contains("profile production"), "\(result.out)")
        }
        let trickles = server.endedTrickles()
        #expect(!trickles.isEmpty && trickles.allSatisfy { $0.clientLeft && $0.bytes < 100 }, "\(trickles)")
    }

    @Test("a trickling answer to one request fails that contract at the deadline, and the run goes on")
    func trickleOneRequest() async throws {
        let creates = Locked(0)
        let server = try HostileServer { request, _ in
            guard request.method == "POST", request.target == Self.createPath, !request.isProfileProbe else { return .proxy }
            let trickled = creates.withLock { count -> Bool in
                count += 1
                return count <= 2
            }
            return trickled ? .trickle(interval: 0.2, count: 100) : .proxy
        }
        defer { server.stop() }
        let result = await runAgainst(server, ["--timeout", "1"])
        #expect(result.status == 1)
        // Whichever group sent the trickled creates, its failure says they timed out, a setup's too.
        let messages = failureMessages(in: result.json)
        #expect(messages.contains { $0.contains("timed out") })
        #expect(!messages.contains { $0.contains("did not answer 201") }, "\(messages)")
        // Every trickled answer was given up by the client before its 100th byte (20 s).
        let trickles = server.endedTrickles()
        #expect(!trickles.isEmpty && trickles.allSatisfy { $0.clientLeft && $0.bytes < 100 }, "\(trickles)")
    }

    @Test("https:// to a server that speaks plain HTTP says so in plain words, with the http:// URL to use")
    func httpsToPlainHTTP() async throws {
        let server = MockHTTPServer(options: MockServerOptions(port: 0))
        let port = try server.start()
        defer { server.stop() }
        let result = await runTool(["run", "--base-url", "https://127.0.0.1:\(port)", "--profile", "strict", "--cases", "0", "--timeout", "5", "--no-progress"])
        #expect(result.status == RunnerExitCode.unreachable.rawValue)
        #expect(result.err.contains("the TLS handshake with 127.0.0.1:\(port) failed"), "\(result.err)")
        #expect(result.err.contains("because the server answers plain HTTP there"), "\(result.err)")
        #expect(result.err.contains("use --base-url http://127.0.0.1:\(port) instead of https://"), "\(result.err)")
    }

    @Test("a connection reset fails that contract; the run goes on and cleans up")
    func reset() async throws {
        let server = try HostileServer { request, index in
            request.method == "POST" && request.target == Self.createPath && !request.isProfileProbe && index < 4 ? .reset : .proxy
        }
        defer { server.stop() }
        // One group at a time: the first requests after the probe and health are creates.
        let result = await runAgainst(server, ["--concurrency", "1"])
        #expect(result.status == 1)
        let messages = failureMessages(in: result.json)
        #expect(messages.contains { $0.contains("reset the connection") || $0.contains("closed the connection") })
        #expect(server.backend.storedAnnouncementCount == 0)
    }

    @Test(
        "secrets never reach the console, --report-json or --junit in any encoding, whatever the server echoes; a short token only as a credential",
        arguments: ["~Z", "petspot-staging-admin-token", "St4ging 'tok\"en' <&>/+"])
    func echoedSecrets(adminToken: String) async throws {
        let server = try HostileServer(adminToken: adminToken) { _, _ in .echo }
        defer { server.stop() }
        let urlPassword = "pa55-w0rd"
        let result = await runAgainst(
            server, baseURL: "http://tester:\(urlPassword)@127.0.0.1:\(server.port)", adminToken: adminToken, ["--cases", "2"])
        #expect(result.status == 1)
        #expect(!result.json.isEmpty && !result.junit.isEmpty)
        var secrets = [adminToken, urlPassword, "tester:\(urlPassword)"] + server.passwords
        for request in server.requests {
            guard let authorization = request.header("Authorization") else { continue }
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            // Credentials holding a password the server handed out; the runner's decoys (a wrong
            // password, an id alone, text that is not base64) protect nothing and are shown.
            guard parts.count == 2, parts[0] == "Basic", let decoded = Data(base64Encoded: parts[1]).map({ String(decoding: $0, as: UTF8.self) }),
                server.passwords.contains(where: { decoded.hasSuffix($0) })
            else { continue }
            secrets.append(parts[1])
            if let colon = decoded.firstIndex(of: ":"), decoded.index(after: colon) < decoded.endIndex {
                secrets.append(decoded)
            }
        }
        #expect(server.passwords.count >= 2)
        let credentials = Data("tester:\(urlPassword)".utf8).base64EncodedString()
        #expect(!server.requests.contains { $0.head.contains(urlPassword) || $0.head.contains(credentials) }, "the URL's credentials were sent")
        let outputs = [
            ("console", result.out + result.err), ("--report-json", result.json + "\n" + SecretForms.strings(inJSON: result.json).joined(separator: "\n")),
            ("--junit", result.junit + "\n" + SecretForms.unescapingMarkup(result.junit)),
        ]
        for (name, text) in outputs {
            let searched = SecretForms.Searched(text)
            for secret in Set(secrets) where secret.count >= Redactor.minimumLength {
                let leaks = SecretForms.leaks(of: secret, in: searched)
                #expect(leaks.isEmpty, "\(name) shows the secret \(secret) as \(leaks)")
            }
        }
        // The echo did reach the report (masked), so the check above saw it, and in every form.
        #expect(result.out.contains("\"echo\""))
        #expect(result.out.contains("html.escape: "))
        #expect(result.out.contains("Authorization: ******") || result.out.contains("authorization\":\"******"))
        if adminToken.count < Redactor.minimumLength {
            // Too short to be told apart from other text: masked where it stands as a credential.
            #expect(result.out.contains("\"authorization\":\"******\""))
            #expect(!result.out.contains("\"authorization\":\"\(adminToken)\""))
        }
    }

    @Test("an unwritable report path exits 2 before the first request", arguments: ["--junit", "--report-json"])
    func unwritableReport(flag: String) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let result = await runTool([
            "run", "--base-url", server.url, "--admin-token", MockBackend.defaultAdminToken, "--cases", "1", "--no-progress",
            flag, "/nonexistent-directory-\(UUID().uuidString)/report",
        ])
        #expect(result.status == RunnerExitCode.configuration.rawValue)
        #expect(result.err.contains("cannot write the \(flag) file"))
        #expect(server.requests.isEmpty, "\(server.requests.count) requests were sent before the report path was checked")
    }

    @Test("a run whose budget skipped most contracts is not OK: exit 1 and a clear line")
    func budgetSkipsMost() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let result = await runAgainst(server, ["--max-requests", "3"])
        #expect(result.status == 1)
        // The probe and the admin token's check, then the health answer and what it shared (CORS,
        // Content-Type) are all a budget of 3 checks.
        #expect(result.out.contains("only 3 of "))
        #expect(result.out.contains("a run passes only when at least half of its contracts are checked"))
        #expect(!result.out.contains("\nOK:"))
        #expect(server.backend.storedAnnouncementCount == 0)
    }

    @Test("a full run over HTTP checks enough contracts to pass, with an admin token or with --allow-leftovers", arguments: [true, false])
    func normalRunPasses(withToken: Bool) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        // The 20 MB photo uploads take seconds on a loaded machine: the time-out is not this test's subject.
        let result = await runAgainst(
            server, adminToken: withToken ? MockBackend.defaultAdminToken : nil, ["--timeout", "120"] + (withToken ? [] : ["--allow-leftovers"]))
        #expect(result.status == 0, "\(result.out)")
        #expect(failures(of: RunCommand.coverageContract, in: result.json).isEmpty)
        #expect(withToken == server.storedIds.isEmpty, "left on the server: \(server.storedIds.count)")
    }

    /// The issue's 100 KB token, answered 431 by the server's header limit: the run went on and
    /// left what it created. Any answer to the check but 404 (and 401, a refused token) means the
    /// run's deletes cannot be trusted: exit 2 before anything is created.
    @Test("an answer to the admin token's check other than 404 or 401 is a setup error: exit 2 naming it, nothing created", arguments: [
        (431, "Request Header Fields Too Large: the token (102400 bytes) is too long for the server's headers"),
        (500, "the server failed on a delete with this token"),
        (200, "a delete of an unknown id must answer 404"),
        (302, "a redirect, not followed for a DELETE"),
    ])
    func tokenCheckAnswers(status: Int, meaning: String) async throws {
        let token = String(repeating: "k", count: 100 * 1024)
        let server = try HostileServer(adminToken: token) { request, _ in
            guard request.method == "DELETE" else { return .proxy }
            return .rewritten { response in
                response.status = status
                response.headers = HTTPHeaders([("Content-Type", "application/json"), ("Location", "/login")])
                response.body = Array(#"{"error":{"requestId":"r","code":"HOSTILE","message":"no"}}"#.utf8)
            }
        }
        defer { server.stop() }
        let result = await runAgainst(server, adminToken: token)
        #expect(result.status == RunnerExitCode.configuration.rawValue, "\(result.err)")
        #expect(result.err.contains("the admin token (--admin-token) could not be checked: DELETE /api/admin/v1/announcements/"), "\(result.err)")
        #expect(result.err.contains("with it answered \(status) HOSTILE \"no\": \(meaning)"), "\(result.err)")
        #expect(result.err.contains("nothing was created"))
        #expect(!result.err.contains("kkkkkkkk") && !result.out.contains("kkkkkkkk"), "the token is not shown")
        #expect(server.requests.map(\.method) == ["POST", "DELETE"], "the probe and the check, nothing more: \(server.requests.map(\.head))")
        #expect(server.backend.storedAnnouncementCount == 0)
    }

    @Test("no answer to the admin token's check (a hang, a reset) is a setup error: exit 2, nothing created", arguments: [true, false])
    func tokenCheckUnanswered(hang: Bool) async throws {
        let server = try HostileServer { request, _ in request.method == "DELETE" ? (hang ? .silent : .reset) : .proxy }
        defer { server.stop() }
        let result = await runAgainst(server, ["--timeout", "1"])
        #expect(result.status == RunnerExitCode.configuration.rawValue, "\(result.err)")
        #expect(result.err.contains("the admin token (--admin-token) could not be checked"), "\(result.err)")
        #expect(result.err.contains(hang ? "got no answer: it timed out (--timeout)" : "got no answer: no connection: "), "\(result.err)")
        #expect(server.requests.map(\.method) == ["POST", "DELETE"], "\(server.requests.map(\.head))")
        #expect(server.backend.storedAnnouncementCount == 0)
    }

    @Test("HTTP:// (scheme in capitals) is accepted and runs")
    func uppercaseScheme() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let result = await runAgainst(server, baseURL: "HTTP://127.0.0.1:\(server.port)", ["--timeout", "120"])
        #expect(result.status == 0, "\(result.err)\(result.out)")
        #expect(result.out.contains("petspot-contracts run: http://127.0.0.1:\(server.port)"))
    }
}

/// The subprocess tests: bounded memory (max RSS of the real executable) and signals.
@Suite("run against a hostile server, as a separate process", .serialized, .onOwnThreads)
struct HostileServerProcessTests {
    /// Peak memory allowed to these runs: the runner's own footprint is about 40 MiB and the
    /// answer cap is 4 MiB a request, so this leaves a wide margin and stays far below what an
    /// unbounded read of a gigabyte (or of a 400 MiB gzip bomb) costs.
    static let memoryLimitKilobytes = 100 * 1024

    /// Runs the executable: 3 generated reports (their creates are what the server attacks) and
    /// a budget that stops before the photo catalog, whose 20 MiB uploads would dominate the
    /// runner's memory.
    static func runBinary(_ server: HostileServer, _ extra: [String]) throws -> WatchedChild.Outcome {
        let binary = try #require(ToolBinary.path)
        return try WatchedChild.run(binary, [
            "run", "--base-url", server.url, "--admin-token", MockBackend.defaultAdminToken, "--cases", "3", "--seed", "3",
            "--max-requests", "19", "--no-progress", "--timeout", "5", "--profile", "production",
        ] + extra, upTo: 180)
    }

    @Test("a 1 GB answer fails its contract with bounded memory, whatever its framing")
    func gigabyte() throws {
        let framings: [HostileServer.Framing] = [.chunked, .close, .contentLength]
        let server = try HostileServer { request, index in
            guard request.method == "POST", request.target == HostileServerTests.createPath, !request.isProfileProbe else { return .proxy }
            return .stream(bytes: 1 << 30, framing: framings[index % 3])
        }
        defer { server.stop() }
        let outcome = try Self.runBinary(server, [])
        #expect(outcome.status == 1, "\(outcome.err)")
        #expect(outcome.out.contains("answer too large"))
        #expect(outcome.out.contains("goes on past"))
        #expect(outcome.out.contains("declares Content-Length 1073741824"))
        #expect(outcome.out.contains("--max-response-bytes 4194304"))
        #expect(outcome.maxRSSKilobytes < Self.memoryLimitKilobytes, "max RSS \(outcome.maxRSSKilobytes) KiB")
        // Each 1 GB answer was given up early: the client hung up long before its end.
        let streams = server.endedStreams()
        #expect(!streams.isEmpty && streams.allSatisfy { $0.clientLeft && $0.bytes < 1 << 29 }, "\(streams)")
    }

    @Test("a gzip bomb is never expanded: the answer is refused with bounded memory")
    func gzipBomb() throws {
        #expect(GzipBomb.body.count < 450_000)
        let server = try HostileServer { request, index in
            request.method == "POST" && request.target == HostileServerTests.createPath && !request.isProfileProbe ? .gzipBomb : .proxy
        }
        defer { server.stop() }
        let outcome = try Self.runBinary(server, [])
        #expect(outcome.status == 1, "\(outcome.err)")
        #expect(outcome.out.contains("Content-Encoding 'gzip'"))
        #expect(outcome.maxRSSKilobytes < Self.memoryLimitKilobytes, "max RSS \(outcome.maxRSSKilobytes) KiB")
    }

    @Test("SIGTERM or SIGINT during run: no new case, cleanup, the report so far, exit 143 or 130", arguments: [
        (SIGTERM, true), (SIGINT, false),
    ])
    func interrupted(signal: Int32, withToken: Bool) throws {
        let binary = try #require(ToolBinary.path)
        let server = try HostileServer { request, _ in
            request.method == "POST" && request.target == HostileServerTests.createPath ? .delayed(seconds: 0.15) : .proxy
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonPath = directory.appendingPathComponent("report.json").path
        var arguments = [
            "run", "--base-url", server.url, "--cases", "200", "--seed", "5", "--concurrency", "2", "--no-progress",
            "--report-json", jsonPath, "--junit", directory.appendingPathComponent("report.xml").path,
        ]
        arguments += withToken ? ["--admin-token", MockBackend.defaultAdminToken] : ["--allow-leftovers"]
        let child = try WatchedChild(binary, arguments)
        // Wait until some reports (with their photos) are on the server (counted polls, far
        // above what even a loaded machine needs).
        for _ in 0..<6000 {
            if server.requests.filter({ $0.target.hasSuffix("/photos") }).count >= 4 { break }
            usleep(20_000)
        }
        let createdBefore = server.passwords.count
        child.send(signal)
        let outcome = child.wait(upTo: 600)
        #expect(outcome.status == (signal == SIGTERM ? 143 : 130), "\(outcome.err)")
        #expect(createdBefore >= 4)
        #expect(outcome.err.contains("received: no new case is started"))
        #expect(outcome.out.contains("interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"))
        let report = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        let interruption = report["groups"]?.arrayValue?.first { $0["name"]?.stringValue == InterruptedRun.group }
        #expect(interruption?["contracts"]?[0]?["status"] == "failed", "an interrupted run never passes")
        let leftovers = Set(report["leftovers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        let stored = server.storedIds
        #expect(stored.count == server.backend.storedAnnouncementCount)
        if withToken {
            #expect(stored.isEmpty, "left on the server: \(stored)")
        } else {
            #expect(!stored.isEmpty)
            #expect(stored.isSubset(of: leftovers), "not listed: \(stored.subtracting(leftovers))")
        }
        // Far fewer reports were submitted than the 200 asked for.
        #expect(server.passwords.count < 100)
    }
}

extension HostileServer.Received {
    /// Whether this is `run`'s profile probe (a create with `{}`, sent before every run), which
    /// tests that act on the first creates leave alone.
    var isProfileProbe: Bool {
        method == "POST" && target == HostileServerTests.createPath && body == Array(RunCommand.profileProbeBody.utf8)
    }
}
