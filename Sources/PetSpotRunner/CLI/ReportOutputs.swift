import Foundation

extension OptionSpec {
    /// `--report-html FILE`.
    public static let reportHTML = OptionSpec(
        "--report-html", value: "FILE", help: "Also write a self-contained HTML report to FILE (no network needed to view it).")
    /// `--github-annotations`.
    public static let githubAnnotations = OptionSpec(
        "--github-annotations", default: "on when GITHUB_ACTIONS=true",
        help: "Print each failure as a GitHub Actions ::error annotation after the report.")
}

/// The report outputs of `check` and `run` beyond the console, JSON and JUnit: the HTML report
/// (`--report-html`) and GitHub Actions annotations (`--github-annotations`, on by default
/// when `GITHUB_ACTIONS` is `true`).
package struct ReportOutputs: Sendable {
    /// The options, for a command's ``CommandSpec``.
    package static let options: [OptionSpec] = [.reportHTML, .githubAnnotations]
    /// The synopsis words of ``options``.
    package static let synopsis = "[--report-html FILE] [--github-annotations]"

    /// Where the HTML report goes, if anywhere.
    package let htmlPath: String?
    /// Whether failures are printed as workflow commands.
    package let githubAnnotations: Bool

    /// The outputs asked for by `parsed`; `environment` decides the GitHub default.
    package init(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RunnerError) {
        htmlPath = try parsed.nonEmpty("--report-html")
        githubAnnotations = parsed.flag("--github-annotations") || environment["GITHUB_ACTIONS"] == "true"
    }

    /// Writes the HTML report and prints the annotations (on standard output, after the report).
    /// - Throws: ``RunnerError`` (configuration) when the HTML file cannot be written.
    package func write(_ report: ContractReport, output: RunnerOutput) throws(RunnerError) {
        if let htmlPath { try report.writeHTML(to: htmlPath) }
        if githubAnnotations {
            for line in report.githubAnnotations { output.line(line) }
        }
    }
}
