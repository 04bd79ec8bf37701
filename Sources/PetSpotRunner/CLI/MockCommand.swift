import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotMockBackend

/// `petspot-contracts mock`: the mock backend over HTTP on loopback.
struct MockCommand: RunnerCommand {
    static let spec = CommandSpec(
        name: "mock",
        synopsis: "[--host 127.0.0.1] [--port N] [--profile strict|production] [--faults SPEC] [--admin-token T]",
        summary: "Serve the mock backend over HTTP/1.1 until SIGINT or SIGTERM.",
        discussion: "Prints one line 'listening on http://HOST:PORT' when ready (port 0 picks a free port).",
        options: [
            OptionSpec("--host", value: "HOST", default: "127.0.0.1", help: "Address to bind (loopback only: 127.0.0.1 or localhost)."),
            OptionSpec("--port", value: "N", default: "0, a free port", help: "Port to listen on."),
            OptionSpec("--profile", value: "P", default: "strict", help: "strict (rejects blank strings, 400 on bad JSON) or production."),
            OptionSpec("--faults", value: "SPEC", default: "none", help: "Injected faults, e.g. 500:0.1,503:0.05,delay=200ms:0.1,drop:0.02,seed=42."),
            OptionSpec("--admin-token", value: "T", default: MockBackend.defaultAdminToken, help: "Token the admin delete route accepts."),
        ],
        examples: [
            "petspot-contracts mock --port 8080",
            "petspot-contracts mock --profile production --faults 503:0.1,seed=7",
        ])

    let options: MockServerOptions

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
        options = MockServerOptions(
            host: "127.0.0.1", port: port, profile: BackendProfile(rawValue: profileName) ?? .strict, faults: faults,
            adminToken: token)
    }

    func run(output: RunnerOutput) async throws -> RunnerExitCode {
        let options = self.options
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
