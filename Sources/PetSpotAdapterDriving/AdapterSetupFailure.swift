import Foundation
import PetSpotReport
import PetSpotRuntime

/// An adapter that never answered a question: a setup mistake (a wrong path, a missing exec bit,
/// an unflushed output), not a defect of the app, so `check` stops with exit code 2 and one
/// paragraph instead of a contract report.
///
/// ``paragraph`` names the command, what happened, what the adapter wrote on standard error and
/// the likely fix, e.g.:
///
/// > the adapter never answered a question: --sut "python3 wrong/path.py" exited with status 2 before
/// > answering its first question (twice). Its standard error: "python3: can't open file
/// > '/work/wrong/path.py': [Errno 2] No such file or directory". Likely fix: check the path
/// > of the program and of every file it names (relative paths start at /work) ...
package struct AdapterSetupFailure: Sendable, Hashable {
    /// What happened, from the first start's point of view.
    package enum Reason: Sendable, Hashable {
        /// `/bin/sh` itself could not be started (no pipes, no process).
        case cannotStart(String)
        /// The adapter exited before answering: `status` (nil when unknown), on each of `starts` starts.
        case exited(status: Int32?, starts: Int)
        /// The adapter was killed by `signal` before answering, on each of `starts` starts.
        case crashed(signal: Int32, starts: Int)
        /// No answer within the time-out, and it was not seen waiting for input.
        case timedOut(seconds: Double)
        /// It read the question, waited for more input, and answered only when its input was
        /// closed: `line` is that answer.
        case answersOnlyAtEndOfInput(line: String)
        /// It read the question, waited for more input, and did not answer even when its input
        /// was closed (`status`: how it ended, if it did).
        case neverAnswers(status: Int32?)
    }

    /// The `--sut` command line.
    package let command: String
    /// What happened.
    package let reason: Reason
    /// The first lines the adapter wrote on its standard error (escaped).
    package let standardError: [String]

    /// The directory relative paths of the command start from.
    static var workingDirectory: String { FileManager.default.currentDirectoryPath }

    /// The one paragraph `check` prints: what happened, the adapter's standard error, the likely fix.
    package var paragraph: String {
        let quoted = "\"" + command.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        var text = "the adapter never answered a question: --sut \(quoted) \(happened)."
        if standardError.isEmpty {
            text += " It wrote nothing on standard error."
        } else {
            let shown = standardError.prefix(4).map { DisplayText.sanitized($0, maxBytes: 300) }.joined(separator: " | ")
            text += " Its standard error: \"\(shown)\"\(standardError.count > 4 ? " ..." : "")."
        }
        text += " Likely fix: \(fix) Nothing was checked: this is a setup error (exit code 2), not a defect of the app."
        return text
    }

    private var happened: String {
        switch reason {
        case .cannotStart(let why): return "could not be started (\(why))"
        case .exited(let status, let starts):
            let how = status.map { "exited with status \($0)" } ?? "exited"
            return "\(how) before answering its first question" + (starts > 1 ? " (on each of \(starts) starts)" : "")
        case .crashed(let signal, let starts):
            return "was killed by \(SignalTrap.name(signal)) before answering its first question"
                + (starts > 1 ? " (on each of \(starts) starts)" : "")
        case .timedOut(let seconds):
            return "did not answer its first question within \(ContractReport.plainNumber(seconds)) s (--sut-timeout)"
        case .answersOnlyAtEndOfInput(let line):
            return "read its first question and waited for more input without answering; when its standard input was "
                + "closed it wrote its answer (\"\(DisplayText.sanitized(line, maxBytes: 120))\"): the answer sat in an output buffer"
        case .neverAnswers(let status):
            return "read its first question and waited for more input without answering; when its standard input was closed it "
                + (status.map { "exited with status \($0)" } ?? "still did not answer")
        }
    }

    private var fix: String {
        let directory = Self.workingDirectory
        switch reason {
        case .cannotStart:
            return "free some resources (processes, file descriptors) and run check again."
        case .exited(127, _):
            return "the shell could not find the program: check its path in --sut (relative paths start at \(directory)) and that it is built or installed."
        case .exited(126, _):
            return "the program is not executable: chmod +x it, or run it through its interpreter (--sut \"python3 PATH\")."
        case .exited, .crashed:
            return "check the path of the program and of every file it names (relative paths start at \(directory)), then run the "
                + "command by hand with one question on its standard input (docs/ADAPTERS.md has one) and read its error."
        case .timedOut:
            return "answer each question line at once and flush standard output after each answer line; if the adapter needs "
                + "longer to start, raise --sut-timeout."
        case .answersOnlyAtEndOfInput:
            return "flush standard output after each answer line (Python: print(..., flush=True); Swift: "
                + "FileHandle.standardOutput.write, or fflush(stdout) after print; Kotlin/Java: System.out.flush(); Node: "
                + "process.stdout.write), and read one line per question, not all of standard input."
        case .neverAnswers:
            return "write one answer line for each question line (sut-protocol.md), and flush standard output after it."
        }
    }
}
