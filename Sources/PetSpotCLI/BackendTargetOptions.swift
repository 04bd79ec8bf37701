import Foundation
import PetSpotContractGroups
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// What `run` and `can-i-deploy` share: the options that point them at a backend and bound what
/// they send, declared once, and their values read once into one settings value per command
/// (``RunSettings`` holds every default). Each command lists these options in its spec beside its
/// own, and declares its own `--max-requests` (their budgets differ).
struct BackendTargetOptions: Sendable {
    /// The backend's base URL, and the password of credentials written into it (never sent).
    struct BaseURL: Sendable {
        /// The URL without credentials.
        let url: URL
        /// The password of a URL given as `http://user:password@host` (masked in every output).
        let password: String?
    }

    /// The admin token, and whether it came from `--admin-token` (not `PETSPOT_ADMIN_TOKEN`).
    struct AdminToken: Sendable {
        /// The token.
        let value: String
        /// Given with `--admin-token`: the replay and curl lines read it from the variable.
        let fromCommandLine: Bool
    }

    static let baseURL = Option<BaseURL>(
        OptionSpec("--base-url", value: "URL", default: "required", help: "The backend's base URL, e.g. http://127.0.0.1:8080."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            guard let text = given.last else {
                throw context.usage("missing --base-url URL (the backend to check, e.g. http://127.0.0.1:8080)")
            }
            let url = try ParsedArguments.baseURL(text, flag: "--base-url", command: context.command)
            return BaseURL(url: url, password: ParsedArguments.baseURLCredentials(text)?.password)
        }, words: { "--base-url \(shellQuoted($0.url.absoluteString))" })

    /// A token given with `--admin-token` is never printed: the replay line reads it from
    /// `$PETSPOT_ADMIN_TOKEN`, and ``adminTokenNote`` says to set it; one from the environment is
    /// read from it again (no flag). A token with a control character (a line break read from a
    /// file) could never be sent in a header: a usage error (``checkedToken(_:from:_:)``).
    static let adminToken = Option<AdminToken?>(
        OptionSpec("--admin-token", value: "T", default: "$PETSPOT_ADMIN_TOKEN, else none", help: "Admin token: delete checks and cleanup."),
        replay: .always,
        read: { (given: [String], context: OptionContext) throws(RunnerError) in
            if let token = try Option<String?>.nonEmpty(given.last, "--admin-token", context) {
                return AdminToken(value: try checkedToken(token, from: "--admin-token", context), fromCommandLine: true)
            }
            let variable = CurlReproduction.adminTokenVariable
            guard let token = context.environment[variable], !token.isEmpty else { return nil }
            return AdminToken(value: try checkedToken(token, from: "the \(variable) environment variable", context), fromCommandLine: false)
        }, words: { $0?.fromCommandLine == true ? "--admin-token \"$\(CurlReproduction.adminTokenVariable)\"" : nil })

    static let concurrency = Option.int(
        "--concurrency", value: "K", default: RunSettings.run.concurrency, in: 1...64, help: "Requests in flight at most.")
    static let timeout = Option.seconds(
        "--timeout", default: RunSettings.run.requestTimeout, in: 0.1...600, help: "Deadline of each request in seconds, connect to last byte.")
    /// `--deadline SEC`: the run's own deadline (``RunSettings/run`` says why 10 minutes).
    static let deadline = Option.seconds(
        "--deadline", default: RunSettings.run.deadlineSeconds, in: 1...86_400,
        help: "Seconds the whole run may take; then no new request is sent, cleanup runs, the report is written (exit 1).")
    static let maxTimeouts = Option.int(
        "--max-timeouts", default: RunSettings.run.maxConsecutiveTimeouts, in: 1...1_000,
        help: "Requests timing out in a row that stop a contract group (its other contracts are skipped) or the cleanup.")
    static let maxResponseBytes = Option.int(
        "--max-response-bytes", value: "B", default: RunSettings.run.maxResponseBytes, in: 1024...(2 * 1024 * 1024 * 1024),
        defaultText: "\(RunSettings.run.maxResponseBytes) (4 MiB)", help: "Longest answer body read; a longer one fails its contract.")

    /// The base URL, without credentials.
    let baseURL: URL
    /// The password of a `--base-url` given with credentials (never sent; masked in every output).
    let baseURLPassword: String?
    /// The admin token (`--admin-token` or `PETSPOT_ADMIN_TOKEN`), if any.
    let adminToken: String?
    /// Whether the admin token came from `--admin-token` (not from `PETSPOT_ADMIN_TOKEN`).
    let adminTokenFromCommandLine: Bool
    /// What the command sends with: budget, concurrency, time-outs, deadline, answer size.
    let settings: RunSettings
    /// Where the report goes beyond the console.
    let outputs: ReportOutputs
    /// Whether the live progress line is written (`--no-progress` turns it off).
    let showsProgress: Bool
    /// The command line that replays the command.
    let replayCommand: String

    /// Reads the shared options, and the command's own `maxRequests`, from `options`.
    init(_ options: ResolvedOptions, maxRequests: Option<Int>) throws(RunnerError) {
        let base = try options[Self.baseURL]
        baseURL = base.url
        baseURLPassword = base.password
        let token = try options[Self.adminToken]
        adminToken = token?.value
        adminTokenFromCommandLine = token?.fromCommandLine ?? false
        settings = try RunSettings(
            concurrency: options[Self.concurrency], maxRequests: options[maxRequests], requestTimeout: options[Self.timeout],
            deadlineSeconds: options[Self.deadline], maxConsecutiveTimeouts: options[Self.maxTimeouts],
            maxResponseBytes: options[Self.maxResponseBytes])
        outputs = try ReportOutputs(options)
        showsProgress = try !options[CommonOptions.noProgress]
        replayCommand = options.replayLine
    }

    /// Where the admin token is read from again: the flag's variable, or the variable it came from.
    var adminTokenSource: String { adminTokenFromCommandLine ? "--admin-token" : CurlReproduction.adminTokenVariable }

    /// The secrets every output masks: the admin token and the base URL's password.
    var secrets: SecretStore { SecretStore([adminToken, baseURLPassword]) }

    /// The HTTP transport to the base URL, with the request time-out and answer size.
    var transport: RunnerHTTPTransport {
        RunnerHTTPTransport(baseURL: baseURL, timeout: settings.requestTimeout, maxResponseBytes: settings.maxResponseBytes)
    }

    /// `token` when it can be sent in a header: a usage error naming `source` and the byte offset
    /// of its first control character otherwise (the token itself is never printed).
    static func checkedToken(_ token: String, from source: String, _ context: OptionContext) throws(RunnerError) -> String {
        var offset = 0
        for scalar in token.unicodeScalars {
            if DisplayText.needsEscape(scalar) {
                throw context.usage(
                    "the admin token from \(source) contains the control character \(DisplayText.escape(scalar)) at byte offset \(offset) "
                        + "(a line break read from a file?): it cannot be sent in an Authorization header; remove it")
            }
            offset += String(scalar).utf8.count
        }
        return token
    }

    /// For a token given with `--admin-token`: where the replay and curl lines take it from.
    var adminTokenNote: String? {
        adminTokenFromCommandLine
            ? "the admin token was given with --admin-token and is never printed: the replay and curl lines read it from "
                + "$\(CurlReproduction.adminTokenVariable), so set that variable to it before running them"
            : nil
    }
}
