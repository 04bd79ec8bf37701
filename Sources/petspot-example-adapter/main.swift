// petspot-example-adapter: the reference model behind the flow adapter protocol (version 1).
//
// Reads one question per line on standard input, answers one line per question on standard
// output (flushed), exits 0 when standard input closes. See docs/ADAPTERS.md
// for the protocol and how an iOS team writes the same program around its own flow code.
//
// `--break MODE` (or PETSPOT_ADAPTER_BREAK=MODE) deliberately breaks the mapping so that the
// runner's own tests can prove each check catches it:
//   status-lowercase      status "missing"/"found" instead of MISSING/FOUND
//   leak-caregiver-phone  Found payloads carry the iOS-only caregiverPhone
//   drop-email            submitted payloads lose their email
//   empty-breed           submitted payloads carry "breed": "" when no breed was typed
//   untrimmed-email       the email is sent as typed, untrimmed
//   crash-on-id N         exit 70 instead of answering question N
//   slow                  sleep 30 s before every answer
//   garbage               answer a line that is not JSON
//   wrong-id              answer with id + 1
//   shuffle-fields        (not a break) blocked fields listed in reverse order
import Foundation
import PetSpotJSON
import PetSpotModel

enum BreakMode: Equatable {
    case none, statusLowercase, leakCaregiverPhone, dropEmail, emptyBreed, untrimmedEmail, slow, garbage, wrongId
    case shuffleFields
    case crashOnId(Int)

    static let usage = """
        usage: petspot-example-adapter [--break MODE]
        MODE: status-lowercase | leak-caregiver-phone | drop-email | empty-breed | untrimmed-email |
              crash-on-id N | slow | garbage | wrong-id | shuffle-fields
        (or set PETSPOT_ADAPTER_BREAK=MODE)
        """

    static func parse(_ words: [String]) -> BreakMode? {
        guard let first = words.first else { return BreakMode.none }
        switch first {
        case "status-lowercase": return .statusLowercase
        case "leak-caregiver-phone": return .leakCaregiverPhone
        case "drop-email": return .dropEmail
        case "empty-breed": return .emptyBreed
        case "untrimmed-email": return .untrimmedEmail
        case "slow": return .slow
        case "garbage": return .garbage
        case "wrong-id": return .wrongId
        case "shuffle-fields": return .shuffleFields
        case "crash-on-id":
            guard words.count > 1, let id = Int(words[1]) else { return nil }
            return .crashOnId(id)
        default: return nil
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("petspot-example-adapter: \(message)\n".utf8))
    exit(2)
}

func breakMode() -> BreakMode {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var words: [String] = []
    if let index = arguments.firstIndex(of: "--break") {
        guard index + 1 < arguments.count else { fail("--break needs a MODE\n\(BreakMode.usage)") }
        words = Array(arguments[(index + 1)...])
        arguments.removeSubrange(index...)
    } else if let variable = ProcessInfo.processInfo.environment["PETSPOT_ADAPTER_BREAK"], !variable.isEmpty {
        words = variable.split(separator: " ").map(String.init)
    }
    if arguments.contains("--help") || arguments.contains("-h") {
        print(BreakMode.usage)
        exit(0)
    }
    if let stray = arguments.first { fail("unexpected argument '\(stray)'\n\(BreakMode.usage)") }
    guard let mode = BreakMode.parse(words) else { fail("unknown break mode '\(words.joined(separator: " "))'\n\(BreakMode.usage)") }
    return mode
}

/// The answer line for one question, as the reference model (possibly broken on purpose) gives it.
func answer(to line: String, mode: BreakMode) -> String {
    let question: JSONValue
    do {
        question = try JSONValue.parse(line)
    } catch {
        fail("question is not JSON: \(error)")
    }
    guard case .object(let object) = question else { fail("question is not a JSON object") }
    guard object["v"] == .number(JSONNumber(1)) else { fail("unsupported protocol version \(object["v"]?.serialized() ?? "(none)")") }
    guard let id = object["id"]?.numberValue?.intValue else { fail("question has no integer id") }
    guard let flowName = object["flow"]?.stringValue, let flow = ReportFlowKind(rawValue: flowName) else {
        fail("question \(id): flow must be \"missing\" or \"found\"")
    }
    let context: ReportContext
    let inputs: ReportInputs
    do {
        context = try ReportContext(json: object["context"] ?? .null)
        inputs = try ReportInputs(json: object["inputs"] ?? .object(JSONObject()))
    } catch {
        fail("question \(id): \(error)")
    }
    if case .crashOnId(let crashId) = mode, crashId == id { exit(70) }
    if mode == .slow { Thread.sleep(forTimeInterval: 30) }
    if mode == .garbage { return "this is not JSON {" }

    var members: [JSONObject.Element] = [("v", 1), ("id", .number(JSONNumber(mode == .wrongId ? id + 1 : id)))]
    switch ReferenceModel.evaluate(flow: flow, inputs: inputs, context: context) {
    case .submitted(var payload):
        switch mode {
        case .statusLowercase:
            payload["status"] = payload["status"]?.stringValue.map { .string($0.lowercased()) }
        case .leakCaregiverPhone:
            if flow == .found, let caregiver = inputs[text: .caregiverPhone] { payload["caregiverPhone"] = .string(caregiver) }
        case .dropEmail:
            payload["email"] = nil
        case .emptyBreed:
            if payload["breed"] == nil { payload["breed"] = "" }
        case .untrimmedEmail:
            if payload["email"] != nil, let typed = inputs[text: .email] { payload["email"] = .string(typed) }
        default:
            break
        }
        members.append(("outcome", "submitted"))
        members.append(("payload", .object(payload)))
    case .blocked(let step, let fields):
        let names = fields.map { JSONValue.string($0.name) }
        members.append(("outcome", "blocked"))
        members.append(("step", .string(step.name)))
        members.append(("fields", .array(mode == .shuffleFields ? names.reversed() : names)))
    }
    return JSONValue.object(JSONObject(members)).serialized()
}

let mode = breakMode()
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    let reply = answer(to: line, mode: mode)
    FileHandle.standardOutput.write(Data((reply + "\n").utf8))
}
exit(0)
