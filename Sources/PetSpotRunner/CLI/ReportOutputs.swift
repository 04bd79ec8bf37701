import Foundation

extension OptionSpec {
    /// `--report-html FILE`.
    static let reportHTML = OptionSpec(
        "--report-html", value: "FILE", help: "Also write a self-contained HTML report to FILE (no network needed to view it).")
    /// `--github-annotations`.
    static let githubAnnotations = OptionSpec(
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
    /// - Throws: a usage error when the `--report-html` file cannot be written, or is one of
    ///   `reportFiles` (the `--report-json` and `--junit` paths).
    package init(
        _ parsed: ParsedArguments, reportFiles: [String?] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RunnerError) {
        htmlPath = try parsed.nonEmpty("--report-html")
        if let htmlPath {
            try ParsedArguments.checkWritable(htmlPath, flag: "--report-html", command: parsed.command.name)
            let standardized = URL(fileURLWithPath: htmlPath).standardizedFileURL.path
            if reportFiles.compactMap({ $0 }).contains(where: { URL(fileURLWithPath: $0).standardizedFileURL.path == standardized }) {
                throw .usage("--report-html names the same file as another report flag", command: parsed.command.name)
            }
        }
        githubAnnotations = parsed.flag("--github-annotations") || environment["GITHUB_ACTIONS"] == "true"
    }

    /// Prints the console report and writes the `--report-json` and `--junit` files
    /// (``ContractReport/deliver(to:json:junit:)``), then prints the annotations and writes the
    /// HTML report. Every output is attempted.
    /// - Throws: a configuration error naming each file that could not be written.
    package func deliver(_ report: ContractReport, to output: RunnerOutput, json: String?, junit: String?) throws(RunnerError) {
        var problems: [String] = []
        do { try report.deliver(to: output, json: json, junit: junit) } catch { problems.append(error.message) }
        if githubAnnotations {
            for line in report.githubAnnotations { output.line(line) }
        }
        if let htmlPath {
            do { try report.writeHTML(to: htmlPath) } catch { problems.append(error.message) }
        }
        if !problems.isEmpty { throw .configuration(problems.joined(separator: "; ")) }
    }
}
