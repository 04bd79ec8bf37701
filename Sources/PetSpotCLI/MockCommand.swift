import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotMockBackend
import PetSpotProcess
import PetSpotRunner
import PetSpotRuntime

/// `petspot-contracts mock`: the mock backend over HTTP on loopback.
struct MockCommand: RunnerCommand {
    /// The defaults the flags show and fall back to.
    static let defaults = MockServerOptions()
    /// The largest `--max-connections` accepted.
    static let maxConnectionsLimit = 65_536

    static let host = Option<String>(
        OptionSpec("--host", value: "HOST", default: "127.0.0.1", help: "Address to bind (loopback only: 127.0.0.1 or localhost)."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            let host = given.last ?? "127.0.0.1"
            guard host == "127.0.0.1" || host == "localhost" else {
                throw context.usage("invalid value '\(host)' for --host: the mock binds loopback only (127.0.0.1)")
            }
            return host
        })
    static let port = Option.int("--port", default: 0, in: 0...65535, defaultText: "0, a free port", help: "Port to listen on.")
    static let profile = Option<BackendProfile>.choice(
        "--profile", value: "P", default: .strict, help: "strict (rejects blank strings, 400 on bad JSON) or production.")
    static let faults = Option<FaultPlan>(
        OptionSpec("--faults", value: "SPEC", default: "none", help: "Injected faults, e.g. 500:0.1,503:0.05,delay=200ms:0.1,drop:0.02,seed=42."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let specification = given.last else { return .none }
            do throws(FaultPlanParseError) {
                return try FaultPlan(parsing: specification)
            } catch {
                throw context.usage("invalid value '\(specification)' for --faults: \(error.description)")
            }
        })
    static let adminToken = Option<String>(
        OptionSpec("--admin-token", value: "T", default: MockBackend.defaultAdminToken, help: "Token the admin delete route accepts."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in try Option<String?>.nonEmpty(given.last, "--admin-token", context) ?? MockBackend.defaultAdminToken })
    /// `--break NAME[,NAME]`, repeatable; `list` asks for the names instead of a server.
    static let defects = Option<MockDefectSelection>(
        OptionSpec("--break", value: "NAME", default: "none", help: "Plant a backend defect (or a comma list); '--break list' prints every name.", repeats: true),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            if given.contains("list") { return .list }
            var defects: Set<MockDefect> = []
            for value in given {
                do throws(MockDefectParseError) {
                    defects.formUnion(try MockDefect.parseList(value))
                } catch {
                    var message = "invalid value '\(value)' for --break: \(error.description)"
                    if let suggestion = ParsedArguments.suggestion(for: error.name, among: MockDefect.allCases.map(\.name)) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    throw context.usage(message)
                }
            }
            return .planted(defects)
        })
    /// `--change NAME[,NAME]`, repeatable; `list` asks for the names instead of a server.
    static let changes = Option<MockChangeSelection>(
        OptionSpec(
            "--change", value: "NAME", default: "none",
            help: "Serve a deliberate contract change (or a comma list), with or without --break; '--change list' prints every name.",
            repeats: true),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            if given.contains("list") { return .list }
            var changes: Set<MockChange> = []
            for value in given {
                do throws(MockChangeParseError) {
                    changes.formUnion(try MockChange.parseList(value))
                } catch {
                    var message = "invalid value '\(value)' for --change: \(error.description)"
                    if let suggestion = ParsedArguments.suggestion(for: error.name, among: MockChange.allCases.map(\.name)) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    throw context.usage(message)
                }
            }
            return .served(changes)
        })
    /// `--sample-rows yes|no`; absent: as the profile (production's store starts with them).
    static let sampleRows = Option<Bool?>(
        OptionSpec(
            "--sample-rows", value: "yes|no", default: "yes with --profile production, no with strict",
            help: "Start with production's 8 sample announcements (ids 1111...-8888..., one with microchip 123456789012345), as production reseeds them on every start."),
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else { return nil }
            switch text.lowercased() {
            case "yes": return true
            case "no": return false
            default: throw context.usage("invalid value '\(text)' for --sample-rows: expected yes or no")
            }
        })
    static let maxConnections = Option.int(
        "--max-connections", default: defaults.maxConnections, in: 1...maxConnectionsLimit,
        help: "Connections open at once (1-\(maxConnectionsLimit)); idle ones, then the slowest sender, make room for new clients.")
    static let headerTimeout = Option.seconds(
        "--header-timeout", default: defaults.headerTimeout, in: 0.01...86_400,
        help: "Seconds from a request's first byte to the end of its header section (then 408); at most --request-timeout.")
    static let requestTimeout = Option.seconds(
        "--request-timeout", default: defaults.requestTimeout, in: 0.01...86_400, help: "Seconds from a request's first byte to the end of its body (then 408).")
    static let idleTimeout = Option.seconds(
        "--idle-timeout", default: defaults.idleTimeout, in: 0.01...86_400, help: "Seconds a keep-alive connection with no request in progress stays open.")

    static let spec = CommandSpec(
        name: "mock",
        summary: "Serve the mock backend over HTTP/1.1 until SIGINT or SIGTERM.",
        discussion: """
            Prints one line 'listening on http://HOST:PORT' when ready (port 0 picks a free port); exits 0 after SIGINT or SIGTERM, \
            once requests being handled are answered (at most 5 s).

            Limits that keep the mock available when clients misbehave: slow clients cost no thread, and every request must \
            arrive within fixed deadlines counted from its first byte (--header-timeout for the header section, --request-timeout \
            for the whole request; sending slowly does not extend them; then 408). A connection with no request in progress is \
            closed after --idle-timeout. At --max-connections a new client takes the slot of the longest-idle connection, else of \
            the slowest sender (answered 503); only when every connection has a request being handled is it answered 503. The mock \
            raises its soft open-file limit to fit --max-connections when the hard limit allows; under a lower limit it holds fewer \
            connections (the limit less 16 descriptors and a few for clients waiting for a slot) and says so in one warning line on \
            standard error. Should descriptors run out all the same, it closes an idle connection or the slowest sender, else pauses \
            accepting (10-250 ms), and keeps serving. A body larger than the route reads (100 KB of JSON, the photo's multipart \
            limit) is answered 413 as soon as its header section arrives, unread, and the connection closed. A client that does not \
            read its answers gets at most 64 KiB queued unsent; then no more of its requests are read until it reads, and it is \
            disconnected if an answer stays unsent for 10 s.
            """,
        options: [
            host, port, profile, sampleRows, faults, adminToken, defects, changes, maxConnections, headerTimeout, requestTimeout, idleTimeout,
        ],
        examples: [
            "petspot-contracts mock --port 8080",
            "petspot-contracts mock --profile production --faults 503:0.1,seed=7",
            "petspot-contracts mock --profile production --sample-rows no",
            "petspot-contracts mock --profile production --break delete-any-token-accepted --break echo-html-kept",
            "petspot-contracts mock --break list",
            "petspot-contracts mock --profile production --change status-missing-renamed-lost,breed-removed",
            "petspot-contracts mock --change list",
            "petspot-contracts mock --max-connections 64 --header-timeout 2 --request-timeout 10 --idle-timeout 5",
        ],
        exitCodes: "EXIT CODES: 0 stopped cleanly (SIGINT or SIGTERM; also --break list and --change list), \(RunnerExitCode.usage.rawValue) usage error, "
            + "\(RunnerExitCode.configuration.rawValue) configuration error (e.g. the port is in use).")

    /// What `--break` asked for.
    enum MockDefectSelection: Sendable {
        /// Print every defect's name instead of serving.
        case list
        /// Serve with these defects planted.
        case planted(Set<MockDefect>)
    }

    /// What `--change` asked for.
    enum MockChangeSelection: Sendable {
        /// Print every change's name instead of serving.
        case list
        /// Serve with these changes.
        case served(Set<MockChange>)
    }

    let options: MockServerOptions
    /// Whether `--break list` asked for the defect names instead of a server.
    let listsDefects: Bool
    /// Whether `--change list` asked for the change names instead of a server.
    let listsChanges: Bool

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let resolved = try parsed.resolve()
        var options = try MockServerOptions(
            host: "127.0.0.1", port: resolved[Self.port], profile: resolved[Self.profile], faults: resolved[Self.faults],
            adminToken: resolved[Self.adminToken], requestTimeout: resolved[Self.requestTimeout], idleTimeout: resolved[Self.idleTimeout],
            maxConnections: resolved[Self.maxConnections], headerTimeout: resolved[Self.headerTimeout])
        options.sampleRows = try resolved[Self.sampleRows] ?? (options.profile == .production)
        switch try resolved[Self.defects] {
        case .list:
            listsDefects = true
        case .planted(let defects):
            listsDefects = false
            options.defects = defects
        }
        switch try resolved[Self.changes] {
        case .list:
            listsChanges = true
        case .served(let changes):
            listsChanges = false
            options.changes = changes
        }
        self.options = options
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        if listsChanges {
            let width = MockChange.allCases.map(\.name.count).max() ?? 0
            for change in MockChange.allCases {
                let padding = String(repeating: " ", count: width - change.name.count)
                let answer = change.answer.map { " -> \($0.status) \($0.code), field \($0.field)" } ?? ""
                output.line("\(change.name)\(padding)  \(change.kind.rawValue): \(change.summary)\(answer)")
            }
        }
        if listsDefects {
            let width = MockDefect.allCases.map(\.name.count).max() ?? 0
            for surface in MockDefect.Surface.allCases {
                for defect in MockDefect.defects(of: surface) {
                    let profiles = defect.profiles.count == BackendProfile.allCases.count ? "" : " (production profile only)"
                    let padding = String(repeating: " ", count: width - defect.name.count)
                    output.line("\(defect.name)\(padding)  \(surface.rawValue): \(defect.summary)\(profiles)")
                }
            }
        }
        if listsDefects || listsChanges { return .success }
        let options = self.options
        for defect in options.defects.sorted(by: { $0.name < $1.name }) where !defect.profiles.contains(options.profile) {
            output.errorLine("note: --break \(defect.name) changes nothing in the \(options.profile.rawValue) profile")
        }
        if !options.changes.isEmpty {
            let names = MockChange.allCases.filter(options.changes.contains).map(\.name).joined(separator: ", ")
            output.errorLine("serving contract changes (\(options.changes.count)): \(names)")
        }
        // Started by one of our processes (a test, `check`): stop cleanly once it is gone.
        if output.ownsProcess { ParentWatch.start(ending: .terminationSignal) }
        let failure = await runOnDedicatedThread { () -> String? in
            do {
                try MockHTTPServer.runMockServer(options: options)
                return nil
            } catch {
                return String(describing: error)
            }
        }
        if let failure { throw RunnerError.configuration("cannot serve on 127.0.0.1:\(options.port): \(failure)", command: "mock") }
        return .success
    }
}
