import Foundation
import PetSpotAdapterDriving
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotFlowChecks
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotMockBackend
import PetSpotModel
import PetSpotPropertyEngine
import PetSpotReport
import PetSpotRuntime
import PetSpotSubmissionFaults

/// Records what one build lets users send: `petspot-contracts record`.
///
/// It asks the build's adapter (protocol version 1 or 2) the flow questions `check` asks, from
/// the same generator and seed (``FlowGenerators/boundaryCases()``: every entry of the boundary
/// catalogue planted, in both flows; ``defaultCases`` questions, four cycles through the
/// catalogue), and keeps every payload that shows a trait a backend's rules can tell apart that no
/// payload before it showed (``PayloadClass``), with the answer the captured contract gives it
/// (``ContractAtRecording``).
/// An adapter that declares version 2 then submits ``submissions`` of those reports through its
/// own submission code, on a healthy network the runner controls (the fault proxy with no fault),
/// and the requests it sends are kept as the backend saw them. Nothing judges the build: a
/// release is what it does, defects included.
///
/// The same build recorded twice with the same seed on the same day gives the same file: the
/// questions, their clocks and the contract's answers depend on the seed alone.
package struct ReleaseRecorder: Sendable {
    /// Four cycles through the boundary catalogue: every entry planted four times (in one flow or
    /// the other), as often as a default `check` reaches it.
    package static var defaultCases: Int { Int((4 * 100 / FlowGenerators.scheduledShare).rounded(.up)) }
    /// Reports submitted through the app's own code (version 2), half of them of each flow it has.
    package static let defaultSubmissions = 8

    /// The release's name.
    package let name: String
    /// The seed of the questions.
    package let seed: UInt64
    /// The day of the recording (UTC `YYYY-MM-DD`).
    package let recordedOn: String
    /// Flow questions to ask.
    package let cases: Int
    /// Reports to submit through the app's own submission code (0: none).
    package let submissions: Int
    /// The request time-out handed to the app's submission code.
    package let requestTimeout: Double
    /// The build's adapter.
    package let oracle: AdapterOracle

    /// A recorder.
    package init(
        name: String, seed: UInt64, recordedOn: String, cases: Int = ReleaseRecorder.defaultCases,
        submissions: Int = ReleaseRecorder.defaultSubmissions, requestTimeout: Double = 5, oracle: AdapterOracle
    ) {
        self.name = name
        self.seed = seed
        self.recordedOn = recordedOn
        self.cases = cases
        self.submissions = submissions
        self.requestTimeout = requestTimeout
        self.oracle = oracle
    }

    /// Why a recording could not be made.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        /// The adapter never answered (it cannot start, never flushes, ...): the setup's fault.
        case setup(AdapterSetupFailure)
        /// The adapter failed a question after answering others: the build's fault.
        case adapter(String)
        /// The release would not be reviewable: over the file or request limits.
        case tooLarge(String)
        /// The runner could not do its part (a loopback port, a temporary file).
        case runner(String)

        package var description: String {
            switch self {
            case .setup(let failure): failure.paragraph
            case .adapter(let message), .tooLarge(let message), .runner(let message): message
            }
        }
    }

    /// One kept report: its case and its payload.
    private struct Kept {
        let flowCase: FlowCase
        let payload: JSONObject
    }

    /// Records the release; `progress` is told of every question.
    package func record(progress: ProgressLine? = nil) throws(Failure) -> RecordedRelease {
        let flowCases = FlowGenerators.boundaryCases().samples(count: cases, seed: seed)
        var summaries = Dictionary(uniqueKeysWithValues: ReportFlowKind.allCases.map { ($0, FlowSummary(flow: $0)) })
        var traits: Set<String> = []
        var kept: [Kept] = []
        for flowCase in flowCases {
            let exchange = oracle.answer(flowCase)
            progress?.advance()
            summaries[flowCase.flow]!.asked += 1
            switch exchange.result {
            case .success(.submitted(let payload)):
                summaries[flowCase.flow]!.submitted += 1
                guard case .object(let object) = payload else { continue }
                let shown = PayloadClass.traits(of: object, flow: flowCase.flow, clock: flowCase.context.now)
                if !shown.isSubset(of: traits) {
                    traits.formUnion(shown)
                    kept.append(Kept(flowCase: flowCase, payload: object))
                }
            case .success(.blocked):
                summaries[flowCase.flow]!.blocked += 1
            case .success(.unavailable):
                summaries[flowCase.flow]!.unavailable += 1
            case .failure(let error):
                if let setup = oracle.setupFailure { throw .setup(setup) }
                throw .adapter("the adapter failed question \(exchange.id) (\(flowCase.flow.rawValue) flow): \(error.description); question: \(exchange.question)")
            }
        }
        let contract = ContractAtRecording()
        let reports = kept.map { item in
            RecordedReport(
                flow: item.flowCase.flow, clock: item.flowCase.context.now, payload: item.payload,
                contract: contract.answer(create: item.payload, at: item.flowCase.context.now))
        }
        let (protocolVersion, recordedSubmissions) = try submit(chosen(kept.map(\.flowCase)), contract: contract)
        let release = RecordedRelease(
            name: name, recordedOn: recordedOn, tool: "\(ContractReport.tool) \(ContractReport.toolVersion)",
            contractVersion: ContractSchemaName.majorVersion, seed: seed, protocolVersion: protocolVersion,
            flows: ReportFlowKind.allCases.map { summaries[$0]! }, reports: reports, submissions: recordedSubmissions)
        let size = release.fileBytes().count
        guard size <= RecordedRelease.maxFileBytes, release.requestCount <= RecordedRelease.maxRequests else {
            throw .tooLarge(
                "the release would hold \(release.requestCount) requests in \(size) bytes, over the \(RecordedRelease.maxRequests) requests "
                    + "and \(RecordedRelease.maxFileBytes) bytes a reviewable release may have: record with fewer --cases or --submissions")
        }
        return release
    }

    /// The reports to submit through the app's own code: in order, alternating between the flows
    /// the build has, at most ``submissions``.
    func chosen(_ cases: [FlowCase]) -> [FlowCase] {
        let byFlow = ReportFlowKind.allCases.map { flow in cases.filter { $0.flow == flow } }
        var chosen: [FlowCase] = []
        var position = 0
        while chosen.count < submissions && byFlow.contains(where: { $0.count > position }) {
            for flowCases in byFlow where position < flowCases.count && chosen.count < submissions { chosen.append(flowCases[position]) }
            position += 1
        }
        return chosen
    }

    /// Submits `cases` through the app's own code and returns the protocol version the adapter
    /// declared (1 when it answers the first submission question `unsupported`) and what it sent.
    func submit(_ cases: [FlowCase], contract: ContractAtRecording) throws(Failure) -> (Int, [RecordedSubmission]) {
        guard !cases.isEmpty else { return (2, []) }
        let proxy = FaultProxy(backend: contract.transport)
        let proxyURL: URL
        do {
            proxyURL = try proxy.start()
        } catch {
            throw .runner("the recording's network could not listen on 127.0.0.1: \(error)")
        }
        defer { proxy.stop() }
        let photos = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-record-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        } catch {
            throw .runner("the recording's photo directory could not be made: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: photos) }
        let app = AdapterSubmittingApp(oracle: oracle, heldAnswerSeconds: 0)
        var submissions: [RecordedSubmission] = []
        for (index, flowCase) in cases.enumerated() {
            contract.backend.removeAllAnnouncements()
            contract.setClock(flowCase.context.now)
            let isPNG = flowCase.inputs.photo?.mimeType.lowercased() == "image/png"
            let photo = isPNG ? SampleImage.png(tag: "petspot-contracts record") : SampleImage.jpeg(tag: "petspot-contracts record")
            let photoPath = photos.appendingPathComponent("\(index)" + (isPNG ? ".png" : ".jpg")).path
            do {
                try photo.write(to: URL(fileURLWithPath: photoPath))
            } catch {
                throw .runner("the photo \(photoPath) could not be written: \(error.localizedDescription)")
            }
            proxy.begin(faults: [], holdLimit: requestTimeout * 4)
            let network = SubmissionNetwork(baseURL: proxyURL, requestTimeout: requestTimeout, photoPath: photoPath)
            let (_, turn) = app.submit(flowCase, over: network)
            switch turn.answer {
            case .failure(.unsupported(version: 2)) where index == 0:
                return (1, [])
            case .success(.blocked(let step, _)):
                throw .adapter(
                    "the adapter answered report \(flowCase.flow.rawValue) blocked at \(step) when submitting it (protocol version 2), "
                        + "though it submitted the same inputs as a version 1 question: \(turn.question ?? "")")
            case .success:
                break
            case .failure(let error):
                let which = index == 0 ? "its first submission question" : "submission question \(index + 1)"
                throw .adapter("the adapter failed \(which) (protocol version 2): \(error.description); question: \(turn.question ?? "")")
            }
            submissions.append(RecordedSubmission(
                flow: flowCase.flow, clock: flowCase.context.now, requests: Self.recorded(proxy.exchanges(settlingFor: requestTimeout + 1))))
        }
        return (2, submissions)
    }

    /// The requests of one submission as the backend saw them, with the ids and passwords its
    /// creates were answered written as `{id}` and `{managementPassword}`.
    static func recorded(_ exchanges: [ProxiedExchange]) -> [RecordedRequest] {
        var created: (id: String, password: String)?
        var requests: [RecordedRequest] = []
        for exchange in exchanges.sorted(by: { $0.index < $1.index }) {
            guard let request = exchange.request else { continue }
            let answer = exchange.backendAnswer.map(ContractAtRecording.recordedAnswer) ?? RecordedAnswer(status: 599, code: "NO_ANSWER")
            var path = String(request.path.split(separator: "?", maxSplits: 1).first ?? "")
            var authorization = request.headers.first { $0.name.lowercased() == "authorization" }?.value
            if let created {
                path = path.replacingOccurrences(of: "/\(created.id)/", with: "/{id}/")
                authorization = authorization.map { Self.templated($0, id: created.id, password: created.password) }
            }
            requests.append(RecordedRequest(
                method: request.method, path: path, authorization: authorization, body: body(of: request), contract: answer))
            if path == RecordedRequest.createPath, case .success(let response)? = exchange.backendAnswer, response.status == 201,
                let object = (try? JSONValue.parse(response.body))?.objectValue, let id = object["id"]?.stringValue,
                let password = object["managementPassword"]?.stringValue
            {
                created = (id, password)
            }
        }
        return requests
    }

    /// A `Basic` credential with the created announcement's id and password as placeholders.
    static func templated(_ authorization: String, id: String, password: String) -> String {
        let words = authorization.split(separator: " ", maxSplits: 1)
        guard words.count == 2, words[0].lowercased() == "basic", let decoded = Data(base64Encoded: String(words[1])),
            let credentials = String(data: decoded, encoding: .utf8)
        else { return authorization }
        let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return authorization }
        let user = parts[0] == id ? "{id}" : parts[0]
        let secret = parts[1] == password ? "{managementPassword}" : parts[1]
        return "\(words[0]) \(user):\(secret)"
    }

    /// The body of `request`: JSON, the parts of a multipart body, or none.
    static func body(of request: TransportRequest) -> RecordedRequest.Body {
        let contentType = request.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        if let boundary = MultipartFormData.boundary(contentType: contentType),
            let parts = try? MultipartFormData.parts(of: Array(request.body), boundary: boundary)
        {
            return .multipart(parts.map { part in
                RecordedPart(
                    name: part.name ?? "", fileName: part.filename, contentType: part.contentType, byteCount: part.body.count,
                    kind: ImageFormat.detect(part.body)?.rawValue ?? "other")
            })
        }
        if request.body.isEmpty { return .none }
        if let value = try? JSONValue.parse(Array(request.body)) { return .json(value) }
        return .text(String(decoding: request.body, as: UTF8.self))
    }
}
