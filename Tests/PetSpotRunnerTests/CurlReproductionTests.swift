import Foundation
@testable import PetSpotCLI
import PetSpotContractGroups
import PetSpotModel
import PetSpotProcess
import PetSpotTestSupport
import Testing

/// Runs `script` with `/bin/sh -c`, the environment `environment` added; returns standard output.
func runShell(_ script: String, environment: [String: String] = [:]) throws -> Data {
    let outcome = try ChildProcess.run(
        "/bin/sh", ["-c", script], environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    return Data(outcome.output)
}

/// A shell function standing in for curl: prints each argument on its own line between markers,
/// then standard input when `--data-binary @-` asks for it.
let fakeCurl = #"curl() { for a in "$@"; do printf '<%s>\n' "$a"; done; case "$*" in *'@-'*) printf 'STDIN:'; cat;; esac; }; "#

@Suite("curl reproduction", .onOwnThreads)
struct CurlReproductionTests {
    let base = URL(string: "http://127.0.0.1:8080")!
    let token = "admin-secret-token-42"
    let password = "654321"

    var reproduction: CurlReproduction {
        CurlReproduction(baseURL: base, adminToken: token, managementPasswords: [password])
    }

    /// The arguments the fake curl received, and what it read from standard input.
    func arguments(_ command: String, environment: [String: String]) throws -> (words: [String], stdin: Data) {
        let output = try runShell(fakeCurl + command, environment: environment)
        var words: [String] = []
        var stdin = Data()
        if let marker = output.range(of: Data("STDIN:".utf8)) {
            stdin = output[marker.upperBound...]
            words = String(decoding: output[..<marker.lowerBound], as: UTF8.self).split(separator: "\n").map { String($0.dropFirst().dropLast()) }
        } else {
            words = String(decoding: output, as: UTF8.self).split(separator: "\n").map { String($0.dropFirst().dropLast()) }
        }
        return (words, stdin)
    }

    @Test("the admin token is read from $PETSPOT_ADMIN_TOKEN and never printed")
    func adminToken() throws {
        let request = TransportRequest(method: "DELETE", path: "/api/admin/v1/announcements/abc", headers: [("Authorization", "Bearer \(token)")])
        let command = reproduction.command(for: request)
        #expect(!command.contains(token))
        #expect(command.contains("\"$PETSPOT_ADMIN_TOKEN\""))
        let (words, _) = try arguments(command, environment: ["PETSPOT_ADMIN_TOKEN": token])
        #expect(words.contains("Authorization: Bearer \(token)"))
        #expect(words.contains("http://127.0.0.1:8080/api/admin/v1/announcements/abc"))
        #expect(words.contains("DELETE"))
    }

    @Test("Basic credentials with the management password: -u, or printf | base64 when -u cannot say it", arguments: [
        "id-1:654321", ":654321", "654321", "id-1:654321:extra",
    ])
    func basic(credentials: String) throws {
        let header = "Basic " + Data(credentials.utf8).base64EncodedString()
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements/id-1/photos", headers: [("Authorization", header)], body: Data("x".utf8))
        let command = reproduction.command(for: request)
        #expect(!command.contains(password))
        #expect(!command.contains(Data(credentials.utf8).base64EncodedString()))
        #expect(command.contains("\"$PETSPOT_MANAGEMENT_PASSWORD\""))
        let (words, _) = try arguments(command, environment: ["PETSPOT_MANAGEMENT_PASSWORD": password])
        if let index = words.firstIndex(of: "-u") {
            #expect("Basic " + Data(words[index + 1].utf8).base64EncodedString() == header)
        } else {
            #expect(words.contains("Authorization: \(header)"))
        }
    }

    @Test("a wrong password or garbage credentials are sent as they were")
    func notSecret() throws {
        let header = "Basic " + Data("id-1:111111".utf8).base64EncodedString()
        let command = reproduction.command(for: TransportRequest(method: "GET", path: "/x", headers: [("Authorization", header)]))
        let (words, _) = try arguments(command, environment: [:])
        #expect(words.contains("Authorization: \(header)"))
    }

    @Test("a JSON body goes in --data-binary exactly, quotes included")
    func textBody() throws {
        let body = Data(#"{"petName":"O'Malley \"Rex\" 100% \\ $HOME `x`","n":1}"#.utf8)
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")], body: body)
        let (words, _) = try arguments(reproduction.command(for: request), environment: [:])
        let index = try #require(words.firstIndex(of: "--data-binary"))
        #expect(Data(words[index + 1].utf8) == body)
        #expect(words.contains("Content-Type: application/json"))
    }

    @Test("no Content-Type: curl is told to send none")
    func noContentType() throws {
        let request = TransportRequest(method: "POST", path: "/api/v1/announcements", body: Data("{}".utf8))
        let (words, _) = try arguments(reproduction.command(for: request), environment: [:])
        #expect(words.contains("Content-Type:"))
    }

    @Test("binary and multipart bodies are piped from printf with the exact bytes, long runs from head -c")
    func binaryBody() throws {
        var bytes: [UInt8] = Array("--b\r\nContent-Disposition: form-data; name=\"photo\"\r\n\r\n".utf8)
        bytes += [0x89, 0x50, 0x4E, 0x47, 0x00, 0x25, 0x5C, 0x27, 0xFF, 0x0A]
        bytes += [UInt8](repeating: 0, count: 5000) + [UInt8](repeating: 0x78, count: 300) + [0x25, 0x25, 0x64]
        bytes += (0..<256).map { UInt8($0) }
        let request = TransportRequest(method: "POST", path: "/p", headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Data(bytes))
        let command = reproduction.command(for: request)
        #expect(command.contains("head -c 5000 /dev/zero"))
        #expect(command.count < 2000)
        let (words, stdin) = try arguments(command, environment: [:])
        #expect(words.contains("@-"))
        #expect(stdin == Data(bytes), "the piped body differs from the request's (\(stdin.count) bytes, expected \(bytes.count))")
    }

    @Test("a body over 100 KB of one letter stays short and exact")
    func largeBody() throws {
        let body = Data(#"{"description":""#.utf8) + Data(repeating: 0x78, count: 110_000) + Data(#""}"#.utf8)
        let command = reproduction.command(for: TransportRequest(method: "POST", path: "/api/v1/announcements", headers: [("Content-Type", "application/json")], body: body))
        #expect(command.count < 400)
        let (words, stdin) = try arguments(command, environment: [:])
        #expect(words.contains("Expect:"))
        #expect(stdin == body, "the piped body differs (\(stdin.count) bytes, expected \(body.count))")
    }

    @Test("a 20 MB body of repeated prose stays short and exact")
    func periodicBody() throws {
        let prose = Array("The quick brown fox jumps over the lazy dog. ".utf8)
        var bytes = Array("--b\r\nContent-Type: image/png\r\n\r\n".utf8)
        while bytes.count < 20 * 1024 * 1024 { bytes += prose }
        bytes += Array("ends here\r\n--b--\r\n".utf8)
        let request = TransportRequest(method: "POST", path: "/p", headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Data(bytes))
        let command = reproduction.command(for: request)
        #expect(command.count < 2000)
        let (_, stdin) = try arguments(command, environment: [:])
        #expect(stdin == Data(bytes), "the piped body differs (\(stdin.count) bytes, expected \(bytes.count))")
    }

    @Test("HEAD uses --head; other methods -X")
    func methods() {
        #expect(reproduction.command(for: TransportRequest(method: "HEAD", path: "/api/health")).contains("--head"))
        #expect(reproduction.command(for: TransportRequest(method: "OPTIONS", path: "/api/health")).contains("-X OPTIONS"))
        #expect(!reproduction.command(for: TransportRequest(method: "GET", path: "/api/health")).contains("-X"))
    }
}

@Suite("run's replay line and the admin token", .onOwnThreads)
struct ReplayTokenTests {
    static func command(_ words: [String], environment: [String: String]) throws -> RunCommand {
        let words = ["--base-url", "http://127.0.0.1:9", "--seed", "5"] + words
        return try RunCommand(try ParsedArguments(words, for: RunCommand.spec), arguments: words, environment: environment)
    }

    @Test("a token from the environment is read from it again: the replay line has no --admin-token and no note")
    func fromEnvironment() throws {
        let command = try Self.command([], environment: ["PETSPOT_ADMIN_TOKEN": "s3cret-token"])
        #expect(command.target.adminToken == "s3cret-token")
        #expect(!command.target.replayCommand.contains("admin-token"))
        #expect(command.target.adminTokenNote == nil)
    }

    @Test("a token given with --admin-token is never printed: the replay line reads $PETSPOT_ADMIN_TOKEN and a note says so")
    func fromCommandLine() throws {
        let command = try Self.command(["--admin-token", "s3cret-token"], environment: [:])
        #expect(command.target.replayCommand.hasSuffix(" --admin-token \"$PETSPOT_ADMIN_TOKEN\""))
        #expect(!command.target.replayCommand.contains("s3cret"))
        #expect(command.target.adminTokenNote?.contains("set that variable") == true)
    }

    @Test("without a token the replay line has no --admin-token")
    func none() throws {
        let command = try Self.command([], environment: [:])
        #expect(!command.target.replayCommand.contains("admin-token"))
        #expect(command.target.adminTokenNote == nil)
    }
}
