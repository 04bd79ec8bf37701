import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// The report outputs of `check` and `run` beyond the console: the JSON report (`--report-json`),
/// JUnit XML (`--junit`), the HTML report (`--report-html`) and GitHub Actions annotations
/// (`--github-annotations`, on by default when `GITHUB_ACTIONS` is `true`).
///
/// Every file is checked writable before anything runs, and no two flags may name one file, so a
/// run never does its work and then fails to write its reports.
package struct ReportOutputs: Sendable {
    /// `--report-json FILE`.
    static let json = Option.reportFile("--report-json", help: "Also write the versioned JSON report to FILE.")
    /// `--junit FILE`.
    static let junit = Option.reportFile("--junit", help: "Also write a JUnit XML report to FILE.")
    /// `--report-html FILE`.
    static let html = Option.reportFile("--report-html", help: "Also write a self-contained HTML report to FILE (no network needed to view it).")
    /// `--github-annotations`.
    static let githubAnnotations = Option(
        OptionSpec("--github-annotations", default: "on when GITHUB_ACTIONS=true", help: "Print each failure as a GitHub Actions ::error annotation after the report."),
        read: { given, context in !given.isEmpty || context.environment["GITHUB_ACTIONS"] == "true" })

    /// `--quiet`.
    static let quiet = Option.flag("--quiet", help: "Print only the failures and the verdict line (no summaries, coverage table or notes).")

    /// The options, for a command's ``CommandSpec``.
    package static let options: [any CommandOption] = [json, junit, html, githubAnnotations, quiet]

    /// Where the JSON report goes, if anywhere.
    package let jsonPath: String?
    /// Where the JUnit report goes, if anywhere.
    package let junitPath: String?
    /// Where the HTML report goes, if anywhere.
    package let htmlPath: String?
    /// Whether failures are printed as workflow commands.
    package let githubAnnotations: Bool
    /// Whether the console shows only the failures and the verdict (`--quiet`).
    package let quiet: Bool

    /// The outputs asked for by `options`.
    /// - Throws: a usage error when two report flags name the same file.
    package init(_ options: ResolvedOptions) throws(RunnerError) {
        jsonPath = try options[Self.json]
        junitPath = try options[Self.junit]
        htmlPath = try options[Self.html]
        githubAnnotations = try options[Self.githubAnnotations]
        quiet = try options[Self.quiet]
        let named = [(Self.json.spec.name, jsonPath), (Self.junit.spec.name, junitPath), (Self.html.spec.name, htmlPath)]
            .compactMap { flag, path in path.map { (flag, URL(fileURLWithPath: $0).standardizedFileURL.path) } }
        for (index, first) in named.enumerated() {
            if let second = named.dropFirst(index + 1).first(where: { $0.1 == first.1 }) {
                throw .usage(
                    "\(first.0) and \(second.0) name the same file '\(DisplayText.sanitized(first.1, maxBytes: 200))'",
                    command: options.command.name)
            }
        }
    }

    /// Prints the console report, the annotations and the verdict line (last), and writes the
    /// `--report-json` and `--junit` files
    /// (``ContractReport/deliver(to:json:junit:quiet:trailer:)``), then writes the HTML report.
    /// Every output is attempted.
    /// - Throws: a configuration error naming each file that could not be written.
    package func deliver(_ report: ContractReport, to output: RunnerOutput) throws(RunnerError) {
        var problems: [String] = []
        let annotations = githubAnnotations ? report.githubAnnotations : []
        do { try report.deliver(to: output, json: jsonPath, junit: junitPath, quiet: quiet, trailer: annotations) } catch { problems.append(error.message) }
        if let htmlPath {
            do { try report.writeHTML(to: htmlPath) } catch { problems.append(error.message) }
        }
        if !problems.isEmpty { throw .configuration(problems.joined(separator: "; ")) }
    }
}
