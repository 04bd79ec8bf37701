// petspot-example-adapter: an app's report flows and its submission behind the flow adapter
// protocol (sut-protocol.md, versions 1 and 2).
//
// Reads one question per line on standard input, answers one line per question on standard
// output (flushed), exits 0 when standard input closes. See docs/ADAPTERS.md for the protocol and
// how an iOS team writes the same program around its own flow code and submission service.
//
// Version 1 questions get the payload the app would POST. Version 2 questions (`op` submit,
// tryAgain, cancel) run the app's own submission code (Submission.swift): the create and the
// photo upload over URLSession to the question's `baseURL`, with its `requestTimeout`, the photo
// read from `photoPath`; the answer is submitted (with the management password), an alert (its
// message), cancelled, or blocked as in version 1. Reports are kept by the id of their submit
// question until the end. `--submission-rule spec|later` picks what Try Again repeats after a
// partial failure: both requests (spec, the default) or only the upload (later).
//
// `--protocol 1` declares that the adapter speaks only version 1: it answers every question of a
// higher version with `{"v": 1, "id": N, "outcome": "unsupported"}` (by default it speaks 2, and
// answers a version 3 question that way with `"v": 2`). `--release 1.0|1.4|2.0` behaves like that
// build of the app in the field (sut-protocol.md, "Older builds also differ ..."; AppRelease in
// FlowApp.swift): 1.0 has only the Missing flow (a `found` question answers
// `{"v": V, "id": N, "outcome": "unavailable"}`), sends no petName, breed or age, sends 0.0 and 0.0
// when both coordinates are left empty, and speaks version 1 only unless `--protocol 2` is given;
// 1.4 sends `"status": "MISSING"` for both flows; 2.0, the default, is today's build.
//
// The flows are this program's own implementation of report-flows.md (FlowApp.swift), written
// independently of the reference model's rule code, so that `check --sut` compares two
// implementations as it does with an app. `--break MODE[,MODE...]` (repeatable, or
// PETSPOT_ADAPTER_BREAK="MODE MODE") plants defects in it: the app defects of Defects.swift
// (`--list-defects` prints them: name, field, boundary class, what it does; the submission
// defects have the field `submission` and the short id of the property they break as class) and
// these protocol breaks:
//   crash-on-id N           exit 70 instead of answering question N
//   crash-on-submit         the submission code crashes on the first version 2 question: a Swift
//                           fatal error line on standard error, exit 70
//   slow                    sleep 30 s before every answer
//   garbage                 answer a line that is not JSON
//   wrong-id                answer with id + 1
//   wrong-v                 answer every question with "v": 3
//   banner                  print "PetSpot adapter RELEASE ready" on standard output before the first answer
//   silent                  read every question, never answer
//   no-flush                answer through a buffered stdout that is never flushed
//   ignore-request-timeout  the submission's HTTP client ignores the question's requestTimeout and
//                           waits URLSession's default 60 s for an answer (the alert as before once it gives up)
//   timeout-in-milliseconds the submission's HTTP client reads the question's requestTimeout as
//                           milliseconds (0.3 s becomes 0.3 ms): it gives up before any answer comes
//   shuffle-fields          (not a defect) blocked fields listed in reverse order
import Foundation
import PetSpotJSON

/// Everything `--break` can switch on.
struct Breaks {
    var defects: Set<String> = []
    var crashOnId: Int?
    var crashOnSubmit = false
    var slow = false
    var garbage = false
    var wrongId = false
    var wrongVersion = false
    var banner = false
    var silent = false
    var noFlush = false
    var ignoreRequestTimeout = false
    var timeoutInMilliseconds = false
    var shuffleFields = false

    static let protocolModes = [
        "crash-on-id N", "crash-on-submit", "slow", "garbage", "wrong-id", "wrong-v", "banner", "silent", "no-flush",
        "ignore-request-timeout", "timeout-in-milliseconds", "shuffle-fields",
    ]

    static var usage: String {
        """
        usage: petspot-example-adapter [--release 1.0|1.4|2.0] [--protocol 1|2] [--break MODE[,MODE...]]...
                                       [--submission-rule spec|later] [--list-defects]
        Answers the flow adapter protocol (sut-protocol.md, versions 1 and 2) on standard input and output.
        --release 2.0   (default) today's build
        --release 1.4   before "status by flow": sends "status": "MISSING" for both flows
        --release 1.0   the first builds: only the Missing flow (a found question answers "unavailable"),
                        no petName, breed or age sent, both coordinates left empty sent as 0.0 and 0.0;
                        speaks version 1 only
        --protocol 1|2  the highest protocol version spoken (default: 1 for --release 1.0, else 2); a question
                        of a higher version is answered {"v": SPOKEN, "id": ID, "outcome": "unsupported"}
        --break MODE    an app defect (--list-defects prints them; the submission defects have the field
                        "submission") or a protocol break:
                        \(protocolModes[..<6].joined(separator: " | ")) |
                        \(protocolModes[6...].joined(separator: " | "))
                        (or set PETSPOT_ADAPTER_BREAK="MODE MODE ..."); on top of the release's own defects
        --submission-rule spec   (default) Try Again repeats the create and the upload
        --submission-rule later  after a create answered 201 and its upload failed, Try Again retries only the upload
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
            case "crash-on-submit": crashOnSubmit = true
            case "slow": slow = true
            case "garbage": garbage = true
            case "wrong-id": wrongId = true
            case "wrong-v": wrongVersion = true
            case "banner": banner = true
            case "silent": silent = true
            case "no-flush": noFlush = true
            case "ignore-request-timeout": ignoreRequestTimeout = true
            case "timeout-in-milliseconds": timeoutInMilliseconds = true
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

    /// The time-out the submission's HTTP client uses for a question's `requestTimeout`: `nil`
    /// (URLSession's default) under `ignore-request-timeout`, a thousandth of it under
    /// `timeout-in-milliseconds`.
    func requestTimeout(given seconds: Double) -> Double? {
        if ignoreRequestTimeout { return nil }
        return timeoutInMilliseconds ? seconds / 1000 : seconds
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

/// What the command line asks for.
struct Options {
    var breaks = Breaks()
    var rule = SubmissionRule.spec
    var release = AppRelease.current
    /// The highest protocol version spoken: `--protocol`, else the release's.
    var protocolVersion = AppRelease.current.protocolVersion
}

/// The options of the command line.
func parseArguments() -> Options {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var options = Options()
    if arguments.contains("--help") || arguments.contains("-h") {
        print(Breaks.usage)
        exit(0)
    }
    if arguments.contains("--list-defects") {
        for defect in Defect.all { print("\(defect.name)\t\(defect.field)\t\(defect.boundaryClass)\t\(defect.summary)") }
        exit(0)
    }
    func words(_ text: String) -> [String] { text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
    /// The value after `flag` (removed with it), `nil` when the flag is not given.
    func take(_ flag: String, expecting: String) throws(UsageError) -> String? {
        guard let index = arguments.firstIndex(of: flag) else { return nil }
        guard index + 1 < arguments.count else { throw UsageError("\(flag) needs \(expecting)") }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        return value
    }
    do throws(UsageError) {
        if let variable = ProcessInfo.processInfo.environment["PETSPOT_ADAPTER_BREAK"], !variable.isEmpty {
            try options.breaks.add(words(variable))
        }
        while let index = arguments.firstIndex(of: "--break") {
            guard index + 1 < arguments.count else { throw UsageError("--break needs a MODE") }
            var taken = words(arguments[index + 1])
            var end = index + 2
            if taken.last == "crash-on-id", end < arguments.count {
                taken.append(arguments[end])
                end += 1
            }
            try options.breaks.add(taken)
            arguments.removeSubrange(index..<end)
        }
        if let value = try take("--submission-rule", expecting: "spec or later") {
            guard let named = SubmissionRule(rawValue: value) else { throw UsageError("--submission-rule needs spec or later, not '\(value)'") }
            options.rule = named
        }
        let releases = AppRelease.allCases.map(\.rawValue).joined(separator: ", ")
        if let value = try take("--release", expecting: "one of \(releases)") {
            guard let named = AppRelease(rawValue: value) else { throw UsageError("--release needs one of \(releases), not '\(value)'") }
            options.release = named
        }
        options.protocolVersion = options.release.protocolVersion
        if let value = try take("--protocol", expecting: "1 or 2") {
            guard let version = Int(value), version == 1 || version == 2 else { throw UsageError("--protocol needs 1 or 2, not '\(value)'") }
            options.protocolVersion = version
        }
    } catch {
        fail("\(error.message)\n\(Breaks.usage)")
    }
    if let stray = arguments.first { fail("unexpected argument '\(stray)'\n\(Breaks.usage)") }
    return options
}

/// A question of either protocol version, decoded.
enum Request {
    /// A question of a version the adapter does not speak: only its id is read.
    case unsupported(id: Int)
    /// Version 1: the payload the app would POST.
    case payload(Question)
    /// Version 2 `submit`: fill the flow, then run the submission against `service`.
    case submit(Question, service: SubmissionService, photoPath: String)
    /// Version 2 `tryAgain` on report `report` (the id of its submit question).
    case tryAgain(id: Int, report: Int)
    /// Version 2 `cancel` on report `report`.
    case cancel(id: Int, report: Int)

    var id: Int {
        switch self {
        case .payload(let question), .submit(let question, _, _): question.id
        case .unsupported(let id), .tryAgain(let id, _), .cancel(let id, _): id
        }
    }

    /// Whether the question is one of version 2, which the submission code answers.
    var isSubmission: Bool {
        switch self {
        case .submit, .tryAgain, .cancel: true
        case .payload, .unsupported: false
        }
    }
}

/// The request on `line` and the version its answer carries, for an adapter that speaks versions
/// up to `spoken`; a line that is not one ends the program with the reason.
func decode(_ line: String, spoken: Int, breaks: Breaks) -> (version: Int, request: Request) {
    guard let value = try? JSONValue.parse(line), case .object(let object) = value else { fail("question is not a JSON object") }
    guard let version = object["v"]?.numberValue?.intValue, version >= 1 else {
        fail("question's \"v\" is \(object["v"]?.serialized() ?? "missing"), not a protocol version (1, 2, ...)")
    }
    guard let id = object["id"]?.numberValue?.intValue else { fail("question has no integer id") }
    if version > spoken { return (spoken, .unsupported(id: id)) }
    if version == 1 { return (1, .payload(decodeReport(object, id: id))) }
    switch object["op"]?.stringValue {
    case "submit":
        let question = decodeReport(object, id: id)
        guard let text = object["baseURL"]?.stringValue, let baseURL = URL(string: text),
              baseURL.scheme == "http" || baseURL.scheme == "https", baseURL.host != nil
        else { fail("question \(id): baseURL is not an http URL") }
        guard let timeout = object["requestTimeout"]?.numberValue.flatMap({ Double($0.description) }), timeout.isFinite, timeout > 0 else {
            fail("question \(id): requestTimeout is not a number of seconds above 0")
        }
        guard let photoPath = object["photoPath"]?.stringValue, !photoPath.isEmpty else { fail("question \(id): photoPath is not a path") }
        let service = SubmissionService(baseURL: baseURL, requestTimeout: breaks.requestTimeout(given: timeout))
        return (2, .submit(question, service: service, photoPath: photoPath))
    case let op? where op == "tryAgain" || op == "cancel":
        guard let report = object["report"]?.numberValue?.intValue else { fail("question \(id): report is not the id of a submit question") }
        return (2, op == "tryAgain" ? .tryAgain(id: id, report: report) : .cancel(id: id, report: report))
    default:
        fail("question \(id): op must be \"submit\", \"tryAgain\" or \"cancel\"")
    }
}

/// The report of a version 1 question or a version 2 submit: flow, context and inputs.
func decodeReport(_ object: JSONObject, id: Int) -> Question {
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

func unknownReport(_ id: Int, _ report: Int) -> String {
    "question \(id): report \(report) is not the id of a submit question that reached the submission"
}

/// The answer line for one question.
@MainActor
func answer(to line: String, options: Options, app: FlowApp, screens: ReportScreens) async -> String {
    let breaks = options.breaks
    let (version, request) = decode(line, spoken: options.protocolVersion, breaks: breaks)
    if breaks.crashOnId == request.id { exit(70) }
    if breaks.crashOnSubmit && request.isSubmission { crashInSubmissionCode() }
    if breaks.slow { try? await Task.sleep(for: .seconds(30)) }
    if breaks.garbage { return "this is not JSON {" }
    var members: [(String, JSONValue)] = [
        ("v", .number(JSONNumber(breaks.wrongVersion ? 3 : version))), ("id", .number(JSONNumber(breaks.wrongId ? request.id + 1 : request.id))),
    ]
    func blocked(_ step: String, _ fields: [String]) {
        members.append(("outcome", "blocked"))
        members.append(("step", .string(step)))
        members.append(("fields", .array((breaks.shuffleFields ? fields.reversed() : fields).map { .string($0) })))
    }
    let outcome: SubmissionAnswer
    switch request {
    case .unsupported:
        members.append(("outcome", "unsupported"))
        return JSONValue.object(JSONObject(members)).serialized()
    case .payload(let question):
        switch app.answer(question) {
        case .submitted(let payload):
            members.append(("outcome", "submitted"))
            members.append(("payload", .object(payload)))
        case .blocked(let step, let fields):
            blocked(step, fields)
        case .unavailable:
            members.append(("outcome", "unavailable"))
        }
        return JSONValue.object(JSONObject(members)).serialized()
    case .submit(let question, let service, let photoPath):
        outcome = await screens.submit(question, service: service, photoPath: photoPath)
    case .tryAgain(let id, let report):
        guard let answered = await screens.tryAgain(report: report) else { fail(unknownReport(id, report)) }
        outcome = answered
    case .cancel(let id, let report):
        guard let answered = screens.cancel(report: report) else { fail(unknownReport(id, report)) }
        outcome = answered
    }
    switch outcome {
    case .blocked(let step, let fields):
        blocked(step, fields)
    case .unavailable:
        members.append(("outcome", "unavailable"))
    case .submitted(let password):
        members.append(("outcome", "submitted"))
        members.append(("managementPassword", .string(password)))
    case .alert(let message):
        members.append(("outcome", "alert"))
        members.append(("message", .string(message)))
    case .cancelled:
        members.append(("outcome", "cancelled"))
    }
    return JSONValue.object(JSONObject(members)).serialized()
}

let options = parseArguments()
let app = FlowApp(defects: options.breaks.defects, release: options.release)
let screens = ReportScreens(app: app, rule: options.rule)

/// Writes one line on standard output: flushed at once, or into the buffer `no-flush` never flushes.
func emit(_ line: String) {
    if options.breaks.noFlush {
        print(line)
    } else {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

if options.breaks.banner { emit("PetSpot adapter \(options.release.rawValue) ready") }
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    let reply = await answer(to: line, options: options, app: app, screens: screens)
    if options.breaks.silent { continue }
    emit(reply)
}
exit(0)
