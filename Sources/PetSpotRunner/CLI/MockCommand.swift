import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotMockBackend

/// `petspot-contracts mock`: the mock backend over HTTP on loopback.
struct MockCommand: RunnerCommand {
    static let spec = CommandSpec(
        name: "mock",
        synopsis: "[--host 127.0.0.1] [--port N] [--profile strict|production] [--faults SPEC] [--admin-token T] [--break NAME[,NAME]] [--max-connections N] [--header-timeout SEC] [--request-timeout SEC] [--idle-timeout SEC]",
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
            OptionSpec("--host", value: "HOST", default: "127.0.0.1", help: "Address to bind (loopback only: 127.0.0.1 or localhost)."),
            OptionSpec("--port", value: "N", default: "0, a free port", help: "Port to listen on."),
            OptionSpec("--profile", value: "P", default: "strict", help: "strict (rejects blank strings, 400 on bad JSON) or production."),
            OptionSpec("--faults", value: "SPEC", default: "none", help: "Injected faults, e.g. 500:0.1,503:0.05,delay=200ms:0.1,drop:0.02,seed=42."),
            OptionSpec("--admin-token", value: "T", default: MockBackend.defaultAdminToken, help: "Token the admin delete route accepts."),
            OptionSpec("--break", value: "NAME", default: "none",
                       help: "Plant a backend defect (repeatable, or a comma list); '--break list' prints every name."),
            OptionSpec("--max-connections", value: "N", default: "\(MockCommand.defaults.maxConnections)",
                       help: "Connections open at once (1-\(MockCommand.maxConnectionsLimit)); idle ones, then the slowest sender, make room for new clients."),
            OptionSpec("--header-timeout", value: "SEC", default: "\(MockCommand.plain(MockCommand.defaults.headerTimeout))",
                       help: "Seconds from a request's first byte to the end of its header section (then 408); at most --request-timeout."),
            OptionSpec("--request-timeout", value: "SEC", default: "\(MockCommand.plain(MockCommand.defaults.requestTimeout))",
                       help: "Seconds from a request's first byte to the end of its body (then 408)."),
            OptionSpec("--idle-timeout", value: "SEC", default: "\(MockCommand.plain(MockCommand.defaults.idleTimeout))",
                       help: "Seconds a keep-alive connection with no request in progress stays open."),
        ],
        examples: [
            "petspot-contracts mock --port 8080",
            "petspot-contracts mock --profile production --faults 503:0.1,seed=7",
            "petspot-contracts mock --profile production --break delete-any-token-accepted --break echo-html-kept",
            "petspot-contracts mock --break list",
            "petspot-contracts mock --max-connections 64 --header-timeout 2 --request-timeout 10 --idle-timeout 5",
        ],
        exitCodes: "EXIT CODES: 0 stopped cleanly (SIGINT or SIGTERM; also --break list), 2 usage or configuration error (e.g. the port is in use).")

    /// The defaults the flags show and fall back to.
    static let defaults = MockServerOptions()
    /// The largest `--max-connections` accepted.
    static let maxConnectionsLimit = 65_536

    private static func plain(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    let options: MockServerOptions
    /// Whether `--break list` asked for the defect names instead of a server.
    let listsDefects: Bool

    init(_ parsed: ParsedArguments, arguments: [String]) throws(RunnerError) {
        let host = parsed.string("--host") ?? "127.0.0.1"
        guard host == "127.0.0.1" || host == "localhost" else {
            throw .usage("invalid value '\(host)' for --host: the mock binds loopback only (127.0.0.1)", command: "mock")
        }
        let port = try parsed.int("--port", default: 0, in: 0...65535)
        let profileName = try parsed.choice("--profile", default: "strict", among: BackendProfile.allCases.map(\.rawValue))
        var faults = FaultPlan.none
        if let specification = parsed.string("--faults") {
            do {
                faults = try FaultPlan(parsing: specification)
            } catch {
                throw .usage("invalid value '\(specification)' for --faults: \(error.description)", command: "mock")
            }
        }
        let token = try parsed.nonEmpty("--admin-token") ?? MockBackend.defaultAdminToken
        let defaults = MockCommand.defaults
        let maxConnections = try parsed.int("--max-connections", default: defaults.maxConnections, in: 1...MockCommand.maxConnectionsLimit)
        let headerTimeout = try parsed.seconds("--header-timeout", default: defaults.headerTimeout, in: 0.01...86_400)
        let requestTimeout = try parsed.seconds("--request-timeout", default: defaults.requestTimeout, in: 0.01...86_400)
        let idleTimeout = try parsed.seconds("--idle-timeout", default: defaults.idleTimeout, in: 0.01...86_400)
        var options = MockServerOptions(
            host: "127.0.0.1", port: port, profile: BackendProfile(rawValue: profileName) ?? .strict, faults: faults,
            adminToken: token, requestTimeout: requestTimeout, idleTimeout: idleTimeout, maxConnections: maxConnections,
            headerTimeout: headerTimeout)
        let breakValues = Self.values(of: "--break", in: arguments)
        listsDefects = breakValues.contains("list")
        if !listsDefects {
            for value in breakValues {
                do {
                    options.defects.formUnion(try MockDefect.parseList(value))
                } catch {
                    var message = "invalid value '\(value)' for --break: \(error.description)"
                    if let suggestion = ParsedArguments.suggestion(for: error.name, among: MockDefect.allCases.map(\.name)) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    throw .usage(message, command: "mock")
                }
            }
        }
        self.options = options
    }

    /// Every value given for `flag` (`--flag V` or `--flag=V`), in order: `--break` may repeat.
    static func values(of flag: String, in arguments: [String]) -> [String] {
        var values: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == flag, index + 1 < arguments.count {
                values.append(arguments[index + 1])
                index += 2
                continue
            }
            if word.hasPrefix(flag + "=") { values.append(String(word.dropFirst(flag.count + 1))) }
            index += 1
        }
        return values
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        if listsDefects {
            let width = MockDefect.allCases.map(\.name.count).max() ?? 0
            for surface in MockDefect.Surface.allCases {
                for defect in MockDefect.defects(of: surface) {
                    let profiles = defect.profiles.count == BackendProfile.allCases.count ? "" : " (production profile only)"
                    let padding = String(repeating: " ", count: width - defect.name.count)
                    output.line("\(defect.name)\(padding)  \(surface.rawValue): \(defect.summary)\(profiles)")
                }
            }
            return .success
        }
        let options = self.options
        for defect in options.defects.sorted(by: { $0.name < $1.name }) where !defect.profiles.contains(options.profile) {
            output.errorLine("note: --break \(defect.name) changes nothing in the \(options.profile.rawValue) profile")
        }
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
