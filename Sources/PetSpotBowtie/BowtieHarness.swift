#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PetSpotJSON
import PetSpotSchema

/// A Bowtie test harness: speaks Bowtie's line protocol so this validator can be compared with
/// every other implementation in Bowtie's reports.
///
/// Each input line is one JSON command, each reply one JSON line:
/// - `{"cmd": "start", "version": 1}` → implementation metadata, dialect draft 2020-12;
/// - `{"cmd": "dialect", "dialect": URI}` → `{"ok": true}` for draft 2020-12, else `{"ok": false}`;
/// - `{"cmd": "run", "seq": S, "case": {"schema", "registry", "tests": [{"instance"}]}}` →
///   `{"seq": S, "results": [{"valid": Bool}]}`, or `{"seq": S, "errored": true, "context": {...}}`
///   when the schema does not compile; a test whose evaluation is undecided (a pattern out of
///   step budget, evaluation nested too deep) answers `{"errored": true, "context": {"message"}}`
///   in its place among the results, never a verdict;
/// - `{"cmd": "stop"}` → no reply; ``run(readLine:write:)`` returns.
///
/// A line that is not valid JSON or not a known command gets an `errored` reply (with its `seq`
/// when one can be read) instead of ending the session. The stdin/stdout variant flushes after
/// every line.
public enum BowtieHarness {
    /// The implementation's metadata as sent in reply to `start`.
    public static let implementation: JSONValue = [
        "language": "swift",
        "name": "petspot-contracts",
        "version": "1.0.0",
        "homepage": "https://petspot.example/contracts",
        "issues": "https://petspot.example/contracts/issues",
        "source": "https://petspot.example/contracts/source",
        "dialects": [.string(SchemaRegistry.draft202012MetaschemaURI)],
    ]

    /// Runs the protocol until `stop` or end of input.
    /// - Parameters:
    ///   - readLine: Returns the next input line without its newline, or `nil` at end of input.
    ///   - write: Receives each reply line (without newline); the caller writes and flushes it.
    public static func run(readLine: () -> String?, write: (String) -> Void) {
        var session = Session()
        while let line = readLine() {
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            switch session.handle(line) {
            case .reply(let reply): write(reply.serialized())
            case .silent: break
            case .stop: return
            }
        }
    }

    /// Runs the protocol on standard input and output, flushing after every reply.
    public static func runOnStandardStreams() {
        run(readLine: { Swift.readLine(strippingNewline: true) }, write: { line in
            print(line)
            fflush(nil)  // all output streams: stdout itself is a global var Swift 6 will not touch
        })
    }

    enum Outcome {
        case reply(JSONValue)
        case silent
        case stop
    }

    /// One conversation's state (whether `start` was received).
    struct Session {
        var started = false

        mutating func handle(_ line: String) -> Outcome {
            let command: JSONValue
            do {
                command = try JSONValue.parse(line)
            } catch {
                return .reply(errored(seq: nil, message: "invalid JSON command: \(error)"))
            }
            switch command["cmd"]?.stringValue {
            case "start":
                guard command["version"] == 1 else {
                    return .reply(errored(seq: nil, message: "unsupported protocol version \(command["version"]?.serialized() ?? "(none)")"))
                }
                started = true
                return .reply(["version": 1, "implementation": BowtieHarness.implementation])
            case "dialect":
                let dialect = command["dialect"]?.stringValue ?? ""
                let withoutFragment = dialect.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                return .reply(["ok": .bool(withoutFragment == SchemaRegistry.draft202012MetaschemaURI)])
            case "run":
                return .reply(run(command))
            case "stop":
                return .stop
            default:
                return .reply(errored(seq: command["seq"], message: "unknown command \(command["cmd"]?.serialized() ?? "(none)")"))
            }
        }

        private func run(_ command: JSONValue) -> JSONValue {
            let seq = command["seq"] ?? .null
            guard started else { return errored(seq: seq, message: "run before start") }
            guard let testCase = command["case"], let schema = testCase["schema"], case .array(let tests)? = testCase["tests"] else {
                return errored(seq: seq, message: "a run command needs case.schema and case.tests")
            }
            var registry = SchemaRegistry()
            if case .object(let documents)? = testCase["registry"] {
                for (uri, document) in zip(documents.keys, documents.values) { registry.register(document, at: uri) }
            }
            let compiled: CompiledSchema
            do {
                compiled = try JSONSchema.compile(schema, registry: registry)
            } catch {
                return errored(seq: seq, message: error.description)
            }
            let results: [JSONValue] = tests.map { test in
                switch compiled.validity(of: test["instance"] ?? .null) {
                case .valid: ["valid": true]
                case .invalid: ["valid": false]
                case .undecided(let error): ["errored": true, "context": ["message": .string(error.description)]]
                }
            }
            return ["seq": seq, "results": .array(results)]
        }

        private func errored(seq: JSONValue?, message: String) -> JSONValue {
            ["seq": seq ?? .null, "errored": true, "context": ["message": .string(message)]]
        }
    }
}
