import Foundation
import PetSpotJSON
import PetSpotModel

/// What one build of the app lets users send, as `petspot-contracts record` found it: the
/// release file a team commits for each release in the field, and `can-i-deploy` replays
/// against a candidate backend.
///
/// A release holds the payloads the build submits, deduplicated to what the backend's rules
/// can tell apart (``PayloadClass``), each with the answer the captured contract gave it when
/// the release was recorded (``RecordedAnswer``); how many questions of each flow the build
/// answered, blocked or does not have (``FlowSummary``: `unavailable` for a flow an old build
/// lacks); and, for an adapter of protocol version 2, the requests the build's own submission
/// code sent (``RecordedSubmission``).
///
/// The file is deterministic: the same build recorded twice with the same seed on the same day
/// gives the same bytes (``RecordedRelease/fileBytes()``), so a re-recording shows in review as
/// the build's change, not as noise.
public struct RecordedRelease: Sendable, Hashable {
    /// The format's name, the file's first member.
    public static let format = "petspot-release"
    /// The version of the file's format this tool reads and writes.
    public static let formatVersion = 1
    /// The largest release file accepted (bytes), so a release stays reviewable in a pull request.
    public static let maxFileBytes = 1024 * 1024
    /// The most requests a release may hold (reports and submission requests).
    public static let maxRequests = 2000

    /// The release's name, as the team calls the build (`2.3.0`, `2026.11 (build 412)`).
    public var name: String
    /// The day the release was recorded (UTC, `YYYY-MM-DD`).
    public var recordedOn: String
    /// The tool and its version that recorded it (`petspot-contracts 1.0.0`).
    public var tool: String
    /// The captured contract's major version it was recorded against (``ContractSchemaName``'s `v1`).
    public var contractVersion: String
    /// The seed of the generated inputs.
    public var seed: UInt64
    /// The adapter protocol version the build's adapter declared (1 or 2).
    public var protocolVersion: Int
    /// The day support for the release ended (Pact's record-support-ended), or `nil` while
    /// phones still run it. A release whose support ended is listed, not checked.
    public var supportEnded: String?
    /// What the build did with the questions of each flow.
    public var flows: [FlowSummary]
    /// The distinct payloads the build submits.
    public var reports: [RecordedReport]
    /// The requests the build's own submission code sent (protocol version 2), one entry per
    /// report submitted.
    public var submissions: [RecordedSubmission]

    /// A release.
    public init(
        name: String, recordedOn: String, tool: String, contractVersion: String, seed: UInt64, protocolVersion: Int,
        supportEnded: String? = nil, flows: [FlowSummary], reports: [RecordedReport], submissions: [RecordedSubmission]
    ) {
        self.name = name
        self.recordedOn = recordedOn
        self.tool = tool
        self.contractVersion = contractVersion
        self.seed = seed
        self.protocolVersion = protocolVersion
        self.supportEnded = supportEnded
        self.flows = flows
        self.reports = reports
        self.submissions = submissions
    }

    /// Whether phones still run the release: `can-i-deploy` checks only these.
    public var isSupported: Bool { supportEnded == nil }

    /// Every request the release holds: one per report, and each submission's.
    public var requestCount: Int { reports.count + submissions.reduce(0) { $0 + $1.requests.count } }

    /// Whether `text` is a day as release files write them (`YYYY-MM-DD`).
    package static func isDay(_ text: String) -> Bool { ReleaseFileReader.isDay(text) && CalendarDate(iso: text) != nil }

    /// Today's UTC day, `YYYY-MM-DD`.
    package static func today(now: Date = Date()) -> String {
        CalendarDate.today(in: TimeZone(secondsFromGMT: 0)!, now: now).isoString
    }

    /// The flows the build does not have (it answered `unavailable`).
    public var unavailableFlows: [ReportFlowKind] { flows.filter { $0.unavailable > 0 && $0.submitted == 0 }.map(\.flow) }
}

/// What a build did with the questions of one flow.
public struct FlowSummary: Sendable, Hashable {
    /// The flow.
    public var flow: ReportFlowKind
    /// Questions asked.
    public var asked: Int
    /// Answered with a payload.
    public var submitted: Int
    /// Answered blocked (Continue refused on a step).
    public var blocked: Int
    /// Answered `unavailable`: the build has no such flow.
    public var unavailable: Int

    /// A flow's summary.
    public init(flow: ReportFlowKind, asked: Int = 0, submitted: Int = 0, blocked: Int = 0, unavailable: Int = 0) {
        self.flow = flow
        self.asked = asked
        self.submitted = submitted
        self.blocked = blocked
        self.unavailable = unavailable
    }
}

/// What the captured contract answered to a request when the release was recorded: its status,
/// and for a refusal the error envelope's code and field.
public struct RecordedAnswer: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// The error code of a refusal (`INVALID_FORMAT`).
    public var code: String?
    /// The field a refusal blames, when one is.
    public var field: String?

    /// An answer.
    public init(status: Int, code: String? = nil, field: String? = nil) {
        self.status = status
        self.code = code
        self.field = field
    }

    /// Whether the request was accepted (2xx).
    public var isAccepted: Bool { (200..<300).contains(status) }

    /// `201`, or `400 INVALID_FORMAT field=age`.
    public var description: String {
        [String(status), code, field.map { "field=\($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

/// One distinct payload a build submits.
public struct RecordedReport: Sendable, Hashable {
    /// The flow the report was made in.
    public var flow: ReportFlowKind
    /// The instant the report was submitted at in its case (its dates are relative to it).
    public var clock: Date
    /// The exact body the build would POST.
    public var payload: JSONObject
    /// What the captured contract answered to it.
    public var contract: RecordedAnswer

    /// A report.
    public init(flow: ReportFlowKind, clock: Date, payload: JSONObject, contract: RecordedAnswer) {
        self.flow = flow
        self.clock = clock
        self.payload = payload
        self.contract = contract
    }
}

/// The requests a build's own submission code sent for one report (protocol version 2), in order.
public struct RecordedSubmission: Sendable, Hashable {
    /// The flow the report was made in.
    public var flow: ReportFlowKind
    /// The instant the report was submitted at.
    public var clock: Date
    /// The requests, as the backend saw them.
    public var requests: [RecordedRequest]

    /// A submission.
    public init(flow: ReportFlowKind, clock: Date, requests: [RecordedRequest]) {
        self.flow = flow
        self.clock = clock
        self.requests = requests
    }
}

/// One request of a build's submission, with what in it depends on an earlier answer written as
/// a placeholder: `{id}` and `{managementPassword}` of the create answered before it.
public struct RecordedRequest: Sendable, Hashable {
    /// What the request is.
    public enum Body: Sendable, Hashable {
        /// A JSON body (the create).
        case json(JSONValue)
        /// A `multipart/form-data` body: its parts, without their bytes.
        case multipart([RecordedPart])
        /// A body that is neither, as sent.
        case text(String)
        /// No body.
        case none
    }

    /// The method (`POST`).
    public var method: String
    /// The path, with `{id}` for the id of the announcement the submission created.
    public var path: String
    /// The `Authorization` header, with `{id}` and `{managementPassword}` placeholders, if sent.
    public var authorization: String?
    /// The body.
    public var body: Body
    /// What the captured contract answered to it.
    public var contract: RecordedAnswer

    /// A request.
    public init(method: String, path: String, authorization: String? = nil, body: Body, contract: RecordedAnswer) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.body = body
        self.contract = contract
    }

    /// The path of a create.
    public static let createPath = "/api/v1/announcements"
    /// The path of a photo upload, with its placeholder.
    public static let uploadPath = "/api/v1/announcements/{id}/photos"
}

/// One part of a recorded multipart body: what the build declared and what it sent, without the
/// bytes (a photo is regenerated at replay: the same kind of image, the same size).
public struct RecordedPart: Sendable, Hashable {
    /// The part's `name`.
    public var name: String
    /// The part's `filename`, if it had one.
    public var fileName: String?
    /// The part's declared `Content-Type`, if it had one.
    public var contentType: String?
    /// The part's size in bytes.
    public var byteCount: Int
    /// The image type its bytes are (`png`, `jpeg`), or `other`.
    public var kind: String

    /// A part.
    public init(name: String, fileName: String?, contentType: String?, byteCount: Int, kind: String) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
        self.kind = kind
    }
}
