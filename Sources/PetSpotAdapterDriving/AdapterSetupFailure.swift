import Foundation
import PetSpotJSON
import PetSpotReport
import PetSpotRuntime

/// An adapter that never gave a valid answer: a setup mistake (a wrong path, a missing exec bit,
/// an unflushed output, a log line on standard output, a protocol version this runner does not
/// ask), not a defect of the app, so `check` stops with exit code 2 and one paragraph instead of
/// a contract report.
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
        /// Its first line on standard output, `line`, is not a JSON object: a banner or a log
        /// line where answers belong.
        case notAnAnswer(line: String)
        /// Its first answer, `line`, carries a `"v"` of a version this runner does not ask
        /// (`version`: the member as written, `nil` when absent).
        case unknownVersion(version: String?, line: String)

        /// The setup mistake `line` shows when it is the adapter's first line that could be an
        /// answer, or `nil` when it is an answer of version 1 or 2 (valid or not, it is then
        /// judged as one).
        package static func firstAnswer(_ line: String) -> Reason? {
            guard case .object(let object)? = try? JSONValue.parse(line) else { return .notAnAnswer(line: line) }
            let version = object["v"]
            if version == .number(JSONNumber(1)) || version == .number(JSONNumber(2)) { return nil }
            return .unknownVersion(version: version?.serialized(), line: line)
        }
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
        var text = "\(lead): --sut \(quoted) \(happened)."
        if standardError.isEmpty {
            text += " It wrote nothing on standard error."
        } else {
            let shown = standardError.prefix(4).map { DisplayText.sanitized($0, maxBytes: 300) }.joined(separator: " | ")
            text += " Its standard error: \"\(shown)\"\(standardError.count > 4 ? " ..." : "")."
        }
        text += " Likely fix: \(fix) Nothing was checked: this is a setup error (exit code 2), not a defect of the app."
        return text
    }

    /// The paragraph's first words: what kind of setup mistake it is.
    private var lead: String {
        switch reason {
        case .notAnAnswer, .unknownVersion: "the adapter never gave a valid answer"
        default: "the adapter never answered a question"
        }
    }

    private var happened: String {
        switch reason {
        case .notAnAnswer(let line):
            return "wrote \"\(DisplayText.sanitized(line, maxBytes: 120))\" on standard output where the answer to its first question "
                + "belongs, and that is not a JSON answer line: standard output carries answers only; logs go to standard error"
        case .unknownVersion(let version?, let line):
            return "answered its first question with \"v\": \(DisplayText.sanitized(version, maxBytes: 40)) "
                + "(\"\(DisplayText.sanitized(line, maxBytes: 120))\"): the adapter answered version \(DisplayText.sanitized(version, maxBytes: 40)); "
                + "this runner asks version 1 and 2 questions"
        case .unknownVersion(nil, let line):
            return "answered its first question without a \"v\" (\"\(DisplayText.sanitized(line, maxBytes: 120))\"): "
                + "this runner asks version 1 and 2 questions, and every answer carries its version"
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
        case .notAnAnswer:
            return "write banners, logs and progress on standard error (Swift: FileHandle.standardError; Python: "
                + "print(..., file=sys.stderr); Kotlin/Java: System.err; Node: console.error), and on standard output one JSON "
                + "answer line per question, nothing else."
        case .unknownVersion:
            return "answer each question with the version it was asked in (its \"v\"), and a question of a version the adapter "
                + "does not speak with {\"v\": V, \"id\": N, \"outcome\": \"unsupported\"}, V the highest version it speaks (docs/ADAPTERS.md, section 4)."
        }
    }
}
