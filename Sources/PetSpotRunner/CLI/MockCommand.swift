import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotMockBackend

/// `petspot-contracts mock`: the mock backend over HTTP on loopback.
struct MockCommand: RunnerCommand {
    static let spec = CommandSpec(
        name: "mock",
        synopsis: "[--host 127.0.0.1] [--port N] [--profile strict|production] [--faults SPEC] [--admin-token T] [--break NAME[,NAME]]",
        summary: "Serve the mock backend over HTTP/1.1 until SIGINT or SIGTERM.",
        discussion: "Prints one line 'listening on http://HOST:PORT' when ready (port 0 picks a free port).",
        options: [
            OptionSpec("--host", value: "HOST", default: "127.0.0.1", help: "Address to bind (loopback only: 127.0.0.1 or localhost)."),
            OptionSpec("--port", value: "N", default: "0, a free port", help: "Port to listen on."),
            OptionSpec("--profile", value: "P", default: "strict", help: "strict (rejects blank strings, 400 on bad JSON) or production."),
            OptionSpec("--faults", value: "SPEC", default: "none", help: "Injected faults, e.g. 500:0.1,503:0.05,delay=200ms:0.1,drop:0.02,seed=42."),
            OptionSpec("--admin-token", value: "T", default: MockBackend.defaultAdminToken, help: "Token the admin delete route accepts."),
            OptionSpec("--break", value: "NAME", default: "none",
                       help: "Plant a backend defect (repeatable, or a comma list); '--break list' prints every name."),
        ],
        examples: [
            "petspot-contracts mock --port 8080",
            "petspot-contracts mock --profile production --faults 503:0.1,seed=7",
            "petspot-contracts mock --profile production --break delete-any-token-accepted --break echo-html-kept",
            "petspot-contracts mock --break list",
        ])

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
        var options = MockServerOptions(
            host: "127.0.0.1", port: port, profile: BackendProfile(rawValue: profileName) ?? .strict, faults: faults,
            adminToken: token)
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
