import Foundation
import PetSpotReport
import PetSpotRunner
import PetSpotRuntime

/// What the command line does with a report: its exit code, the files it writes
/// (`--report-json`, `--junit`, `--report-html`) and its delivery to the console.
extension ContractReport {
    /// The exit code this report calls for: 1 when a contract failed, else 0.
    public var exitCode: RunnerExitCode { hasFailures ? .contractFailed : .success }

    /// Writes the JSON report to `path`.
    public func writeJSON(to path: String) throws(RunnerError) {
        try Self.write(jsonText, to: path, flag: "--report-json")
    }

    /// Writes the JUnit XML to `path`.
    public func writeJUnit(to path: String) throws(RunnerError) {
        try Self.write(junitXML, to: path, flag: "--junit")
    }

    static func write(_ text: String, to path: String, flag: String) throws(RunnerError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .configuration("cannot write \(flag) file '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes the HTML report to `path`.
    public func writeHTML(to path: String) throws(RunnerError) {
        try Self.write(htmlDocument, to: path, flag: "--report-html")
    }

    /// Prints the console report (only the failures with `quiet`), the `trailer` lines (GitHub
    /// annotations) and the verdict line last, then writes the `--report-json` and `--junit`
    /// files (paths checked writable when the command line was read).
    ///
    /// The console comes first, so that failures and leftovers are shown even if a file cannot
    /// be written after all (a full disk); every file is attempted.
    /// - Throws: a configuration error naming each file that could not be written.
    package func deliver(to output: RunnerOutput, json: String?, junit: String?, quiet: Bool = false, trailer: [String] = []) throws(RunnerError) {
        let body = consoleBody(quiet: quiet)
        // The report's own lines cannot issue a workflow command; the annotations are meant to.
        if !body.isEmpty { output.line(WorkflowCommands.visible(body.joined(separator: "\n"))) }
        if !trailer.isEmpty { output.line(trailer.joined(separator: "\n")) }
        output.line(WorkflowCommands.visible(verdictLine))
        var problems: [String] = []
        if let json {
            do { try writeJSON(to: json) } catch { problems.append(error.message) }
        }
        if let junit {
            do { try writeJUnit(to: junit) } catch { problems.append(error.message) }
        }
        if !problems.isEmpty {
            throw .configuration(problems.joined(separator: "; ") + " (the console report above is complete)")
        }
    }
}
