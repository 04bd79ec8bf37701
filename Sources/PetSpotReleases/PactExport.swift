import Foundation
import PetSpotJSON
import PetSpotModel

/// A release as a Pact specification v4 file, for teams that keep their contracts in a Pact
/// Broker: publish it with the release as the consumer version, record the release, and ask the
/// broker's `can-i-deploy` (pact-interop.md).
///
/// One interaction per recorded create request (every report, and the create of every recorded
/// submission), in file order, keyed `missing-3` or `submission-1`. Its response says what the
/// backend must answer for the build to work, judged by matching rules rather than the example
/// (Pact's way, so that the file stays true while ids and passwords vary):
/// - a report the contract accepted: 201 with `status` equal to the one sent, `id` a UUID v4 and
///   `managementPassword` six digits (regular-expression rules);
/// - a report the contract refused when the release was recorded (the build's own defect): the
///   same status, and the error envelope's `code` and `field` as they were.
///
/// A `lastSeenDate` keeps its distance from the day of the report's own clock, as `can-i-deploy`
/// sends it (``ReplayedPayload``): the example is that date seen from the recording day, and a
/// request generator of type `Date` (`"- 3 days"`, `"today"`) makes the verifier send it relative
/// to the day it verifies, so the file stays true as the calendar moves on.
///
/// Every microchip number made of digits is replaced by one unique within the file, of the same
/// length (a backend keeps microchip numbers unique; the file's interactions must not collide
/// with one another). Photo uploads are left out: an upload needs the id its create answered,
/// which a Pact file can only give through provider states; `can-i-deploy` replays them.
/// Verifying the same file twice against one long-lived provider answers 409 to creates with a
/// microchip number (the first verification stored them): verify against a fresh provider, as CI
/// does with `petspot-contracts mock`.
public enum PactExport {
    /// The provider's name in every file.
    public static let provider = "PetSpot backend"
    /// The consumer's name unless the user gives another.
    public static let defaultConsumer = "PetSpot iOS"

    /// The Pact v4 document of `release`, with `consumer` as the consumer's name.
    public static func document(of release: RecordedRelease, consumer: String = defaultConsumer) -> JSONValue {
        var microchips = UniqueMicrochips()
        var interactions: [JSONValue] = []
        var counters: [String: Int] = [:]
        let recordingDay = CalendarDate(iso: release.recordedOn)
        func add(prefix: String, flow: String, payload: JSONObject, clock: Date, contract: RecordedAnswer) {
            counters[prefix, default: 0] += 1
            let key = "\(prefix)-\(counters[prefix]!)"
            var body = payload
            var dayOffset: Int?
            if let text = payload["lastSeenDate"]?.stringValue, let date = CalendarDate(iso: text) {
                let reportDay = CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: clock)
                let offset = date.daysSinceUnixEpoch - reportDay.daysSinceUnixEpoch
                dayOffset = offset
                if let recordingDay { body["lastSeenDate"] = .string(recordingDay.adding(days: offset).isoString) }
            }
            if let chip = payload["microchipNumber"]?.stringValue, !chip.isEmpty, chip.allSatisfy({ $0.isASCII && $0.isNumber }) {
                body["microchipNumber"] = .string(microchips.next(length: chip.count))
            }
            interactions.append(interaction(key: key, flow: flow, payload: body, dayOffset: dayOffset, contract: contract))
        }
        for report in release.reports {
            add(prefix: report.flow.rawValue, flow: report.flow.rawValue, payload: report.payload, clock: report.clock, contract: report.contract)
        }
        for submission in release.submissions {
            for request in submission.requests where request.path == RecordedRequest.createPath {
                guard case .json(.object(let payload)) = request.body else { continue }
                add(prefix: "submission", flow: submission.flow.rawValue, payload: payload, clock: submission.clock, contract: request.contract)
            }
        }
        return .object(JSONObject([
            ("consumer", .object(JSONObject([("name", .string(consumer))]))),
            ("provider", .object(JSONObject([("name", .string(provider))]))),
            ("interactions", .array(interactions)),
            ("metadata", .object(JSONObject([
                ("pactSpecification", .object(JSONObject([("version", "4.0")]))),
                ("petspot", .object(JSONObject([
                    ("release", .string(release.name)), ("recordedOn", .string(release.recordedOn)), ("tool", .string(release.tool)),
                    ("contractVersion", .string(release.contractVersion)),
                ]))),
            ]))),
        ]))
    }

    /// The interaction of one create request; `dayOffset` is its `lastSeenDate` in days from the
    /// day it was made, when it has one.
    static func interaction(key: String, flow: String, payload: JSONObject, dayOffset: Int?, contract: RecordedAnswer) -> JSONValue {
        let json = JSONValue.object(JSONObject([("Content-Type", .array(["application/json"]))]))
        let response: JSONValue
        if contract.isAccepted {
            response = .object(JSONObject([
                ("status", .number(JSONNumber(contract.status))), ("headers", json),
                ("body", .object(JSONObject([
                    ("contentType", "application/json"), ("encoded", false),
                    ("content", .object(JSONObject([
                        ("id", "bb3fc451-1f51-407d-bb85-2569dc9baed3"), ("managementPassword", "467432"),
                        ("status", payload["status"] ?? .null),
                    ]))),
                ]))),
                ("matchingRules", .object(JSONObject([
                    ("body", .object(JSONObject([
                        ("$.id", regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")),
                        ("$.managementPassword", regex("^[0-9]{6}$")),
                    ]))),
                ]))),
            ]))
        } else {
            var error: [(key: String, value: JSONValue)] = []
            if let code = contract.code { error.append(("code", .string(code))) }
            if let field = contract.field { error.append(("field", .string(field))) }
            response = .object(JSONObject([
                ("status", .number(JSONNumber(contract.status))), ("headers", json),
                ("body", .object(JSONObject([
                    ("contentType", "application/json"), ("encoded", false),
                    ("content", .object(JSONObject([("error", .object(JSONObject(error)))]))),
                ]))),
            ]))
        }
        var request = JSONObject([
            ("method", "POST"), ("path", .string(RecordedRequest.createPath)), ("headers", json),
            ("body", .object(JSONObject([("contentType", "application/json"), ("encoded", false), ("content", .object(payload))]))),
        ])
        if let dayOffset {
            request["generators"] = .object(JSONObject([
                ("body", .object(JSONObject([
                    ("$.lastSeenDate", .object(JSONObject([
                        ("type", "Date"), ("format", "yyyy-MM-dd"), ("expression", .string(dateExpression(days: dayOffset))),
                    ]))),
                ]))),
            ]))
        }
        let verb = contract.isAccepted ? "is accepted" : "is refused as when the release was recorded"
        return .object(JSONObject([
            ("type", "Synchronous/HTTP"),
            ("key", .string(key)),
            ("description", .string("\(key): a \(flow) report \(verb) (\(contract))")),
            ("pending", false),
            ("request", .object(request)),
            ("response", response),
        ]))
    }

    /// A Pact date expression for `days` from the day of verification: `today`, `- 3 days`, `+ 1 day`.
    static func dateExpression(days: Int) -> String {
        guard days != 0 else { return "today" }
        return "\(days < 0 ? "-" : "+") \(abs(days)) \(abs(days) == 1 ? "day" : "days")"
    }

    static func regex(_ pattern: String) -> JSONValue {
        .object(JSONObject([
            ("combine", "AND"), ("matchers", .array([.object(JSONObject([("match", "regex"), ("regex", .string(pattern))]))])),
        ]))
    }
}

/// Microchip numbers unique within one file: for each length, `9` then a counter, zero-padded
/// (a 15-digit number `900000000000001`, ...); past the numbers of a length, the counter of
/// the length wraps (only lengths 1 to 3 can run out, and no recorded release has that many).
struct UniqueMicrochips {
    private var used: [Int: Int] = [:]

    mutating func next(length: Int) -> String {
        let count = used[length, default: 0] + 1
        used[length] = count
        guard length > 1 else { return String(count % 10) }
        let room = length - 1
        let limit = (0..<min(room, 18)).reduce(1) { value, _ in value * 10 }
        let counter = String(count % limit)
        return "9" + String(repeating: "0", count: max(0, room - counter.count)) + counter
    }
}
