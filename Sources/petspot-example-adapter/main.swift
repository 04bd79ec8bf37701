// petspot-example-adapter: an app's report flows behind the flow adapter protocol (version 1).
//
// Reads one question per line on standard input, answers one line per question on standard
// output (flushed), exits 0 when standard input closes. See docs/ADAPTERS.md for the protocol and
// how an iOS team writes the same program around its own flow code.
//
// The flows are this program's own implementation of report-flows.md (FlowApp.swift), written
// independently of the reference model's rule code, so that `check --sut` compares two
// implementations as it does with an app. `--break MODE[,MODE...]` (repeatable, or
// PETSPOT_ADAPTER_BREAK="MODE MODE") plants defects in it: the app defects of Defects.swift
// (`--list-defects` prints them: name, field, boundary class, what it does) and these protocol
// breaks:
//   crash-on-id N         exit 70 instead of answering question N
//   slow                  sleep 30 s before every answer
//   garbage               answer a line that is not JSON
//   wrong-id              answer with id + 1
//   silent                read every question, never answer
//   no-flush              answer through a buffered stdout that is never flushed
//   shuffle-fields        (not a defect) blocked fields listed in reverse order
import Foundation
import PetSpotJSON

/// Everything `--break` can switch on.
struct Breaks {
    var defects: Set<String> = []
    var crashOnId: Int?
    var slow = false
    var garbage = false
    var wrongId = false
    var silent = false
    var noFlush = false
    var shuffleFields = false

    static let protocolModes = ["crash-on-id N", "slow", "garbage", "wrong-id", "silent", "no-flush", "shuffle-fields"]

    static var usage: String {
        """
        usage: petspot-example-adapter [--break MODE[,MODE...]]... [--list-defects]
        MODE: an app defect (--list-defects prints them) or \(protocolModes.joined(separator: " | "))
        (or set PETSPOT_ADAPTER_BREAK="MODE MODE ...")
        """
    }

    /// Parses the words of every `--break` (commas and spaces separate modes).
    mutating func add(_ words: [String]) throws(UsageError) {
        var index = 0
        let known = Set(Defect.all.map(\.name))
        while index < words.count {
            let word = words[index]
            index += 1
            switch word {
            case "slow": slow = true
            case "garbage": garbage = true
            case "wrong-id": wrongId = true
            case "silent": silent = true
            case "no-flush": noFlush = true
            case "shuffle-fields": shuffleFields = true
            case "crash-on-id":
                guard index < words.count, let id = Int(words[index]) else { throw UsageError("crash-on-id needs a question id") }
                crashOnId = id
                index += 1
            default:
                guard known.contains(word) else { throw UsageError("unknown break mode '\(word)'") }
                defects.insert(word)
            }
        }
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("petspot-example-adapter: \(message)\n".utf8))
    exit(2)
}

func parseArguments() -> Breaks {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var breaks = Breaks()
    if arguments.contains("--help") || arguments.contains("-h") {
        print(Breaks.usage)
        exit(0)
    }
    if arguments.contains("--list-defects") {
        for defect in Defect.all { print("\(defect.name)\t\(defect.field)\t\(defect.boundaryClass)\t\(defect.summary)") }
        exit(0)
    }
    func words(_ text: String) -> [String] { text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
    do throws(UsageError) {
        if let variable = ProcessInfo.processInfo.environment["PETSPOT_ADAPTER_BREAK"], !variable.isEmpty {
            try breaks.add(words(variable))
        }
        while let index = arguments.firstIndex(of: "--break") {
            guard index + 1 < arguments.count else { throw UsageError("--break needs a MODE") }
            var taken = words(arguments[index + 1])
            var end = index + 2
            if taken.last == "crash-on-id", end < arguments.count {
                taken.append(arguments[end])
                end += 1
            }
            try breaks.add(taken)
            arguments.removeSubrange(index..<end)
        }
    } catch {
        fail("\(error.message)\n\(Breaks.usage)")
    }
    if let stray = arguments.first { fail("unexpected argument '\(stray)'\n\(Breaks.usage)") }
    return breaks
}

/// The question on `line`, or the reason it is not one.
func decode(_ line: String) -> Question {
    guard let value = try? JSONValue.parse(line), case .object(let object) = value else { fail("question is not a JSON object") }
    guard object["v"] == .number(JSONNumber(1)) else { fail("unsupported protocol version \(object["v"]?.serialized() ?? "(none)")") }
    guard let id = object["id"]?.numberValue?.intValue else { fail("question has no integer id") }
    guard let flow = object["flow"]?.stringValue, flow == "missing" || flow == "found" else {
        fail("question \(id): flow must be \"missing\" or \"found\"")
    }
    guard let zoneName = object["context"]?["timeZone"]?.stringValue, let zone = TimeZone(identifier: zoneName) else {
        fail("question \(id): context.timeZone is not a known zone")
    }
    guard let nowText = object["context"]?["now"]?.stringValue, let now = parseInstant(nowText) else {
        fail("question \(id): context.now is not an ISO-8601 instant")
    }
    var inputs = object["inputs"]?.objectValue ?? JSONObject()
    for key in inputs.keys where inputs[key] == .null { inputs[key] = nil }
    return Question(id: id, flow: flow, timeZone: zone, now: now, inputs: inputs)
}

let wholeSeconds = Date.ISO8601FormatStyle()
let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

func parseInstant(_ text: String) -> Date? {
    (try? wholeSeconds.parse(text)) ?? (try? fractionalSeconds.parse(text))
}

/// The answer line for one question.
func answer(to line: String, breaks: Breaks, app: FlowApp) -> String {
    let question = decode(line)
    if breaks.crashOnId == question.id { exit(70) }
    if breaks.slow { Thread.sleep(forTimeInterval: 30) }
    if breaks.garbage { return "this is not JSON {" }
    var members: [(String, JSONValue)] = [("v", 1), ("id", .number(JSONNumber(breaks.wrongId ? question.id + 1 : question.id)))]
    switch app.answer(question) {
    case .submitted(let payload):
        members.append(("outcome", "submitted"))
        members.append(("payload", .object(payload)))
    case .blocked(let step, let fields):
        members.append(("outcome", "blocked"))
        members.append(("step", .string(step)))
        members.append(("fields", .array((breaks.shuffleFields ? fields.reversed() : fields).map { .string($0) })))
    }
    return JSONValue.object(JSONObject(members)).serialized()
}

let breaks = parseArguments()
let app = FlowApp(defects: breaks.defects)
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    let reply = answer(to: line, breaks: breaks, app: app)
    if breaks.silent { continue }
    if breaks.noFlush {
        print(reply)
    } else {
        FileHandle.standardOutput.write(Data((reply + "\n").utf8))
    }
}
exit(0)
