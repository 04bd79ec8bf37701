import Foundation
import PetSpotContractGroups
import PetSpotFlowGenerators
import PetSpotJSON
import PetSpotModel
import PetSpotReport

/// Runs scenarios on an app through the fault proxy, then looks at what the backend holds and
/// deletes what the scenario created.
package struct ScenarioExecutor: Sendable {
    /// The proxy the app is given as its backend.
    let proxy: FaultProxy
    /// The proxy's base URL.
    let proxyURL: URL
    /// The backend behind the proxy (looked at and cleaned up directly, outside the budget).
    let target: BackendTarget
    /// Seconds the app waits for each answer.
    let requestTimeout: Double
    /// Where the photos the app reads are written.
    let photoDirectory: URL

    /// How long an answer is held for an app that does not give up, from the moment its request
    /// arrived: ``holdLimit(requestTimeout:)``.
    var holdLimit: Double { Self.holdLimit(requestTimeout: requestTimeout) }

    /// The longest an answer is held, in seconds, for an app given `requestTimeout`: until the app
    /// gives up (closes the connection), at most max(4 × `requestTimeout`, `requestTimeout` + 10 s),
    /// well past ``longestAllowedWait(requestTimeout:)``, so that an app that waits longer than it
    /// was told is seen waiting, and how long.
    package static func holdLimit(requestTimeout: Double) -> Double { max(4 * requestTimeout, requestTimeout + 10) }

    /// The longest an app given `requestTimeout` may keep waiting for a held answer, in seconds
    /// from the moment its request arrived: 2 × `requestTimeout` + 3 s. Twice the time-out leaves
    /// room for a client that times the connection and the answer apart (each up to the time-out);
    /// the 3 s are for a loaded machine, which delays the app's timer and its close (the proxy
    /// adds how late its own looks at the connection came, measured meanwhile; a correct app
    /// closes at its time-out whatever this allows, so the room costs a passing run nothing). An
    /// app that ignores the value it was given (URLSession's 60 s default, urllib's) waits far longer.
    package static func longestAllowedWait(requestTimeout: Double) -> Double { 2 * requestTimeout + 3 }

    /// The soonest an app given `requestTimeout` may give up on a held answer, in seconds from the
    /// moment its request arrived: a tenth of the time-out. The proxy's clock starts when the whole
    /// request has arrived, which a loaded machine can delay after the app's clock started, so an
    /// app that gives up at its time-out can look early by that much; nine tenths of the time-out
    /// are left for it. An app that reads the value in the wrong unit (0.3 s as 0.3 ms) gives up
    /// far sooner.
    package static func earliestAllowedGiveUp(requestTimeout: Double) -> Double { requestTimeout / 10 }

    /// Runs `scenario` on `app`: submits, then taps Cancel and Try Again on each alert as the
    /// scenario says, until the app leaves the flow or the attempts run out (one per fault, then
    /// two on a healthy network). Each turn's requests are those whose first byte arrived during
    /// it; a connection the app opened and sent nothing on is not waited for.
    package func run(_ scenario: SubmissionScenario, on app: any SubmittingApp) -> ScenarioRun {
        var flowCase = scenario.flowCase
        let microchip = scenario.hasMicrochip ? target.microchips.next() : nil
        flowCase.inputs[text: .chipNumber] = microchip.flatMap { digits in scenario.microchip?.typed(digits) }
        let isPNG = flowCase.inputs.photo?.mimeType.lowercased() == "image/png"
        let tag = "petspot-contracts submission \(target.microchips.prefix) \(UUID().uuidString.lowercased())"
        let photo = isPNG ? SampleImage.png(tag: tag) : SampleImage.jpeg(tag: tag)
        let photoPath = photoDirectory.appendingPathComponent(UUID().uuidString + (isPNG ? ".png" : ".jpg")).path
        try? photo.write(to: URL(fileURLWithPath: photoPath))
        defer { try? FileManager.default.removeItem(atPath: photoPath) }

        var run = ScenarioRun(scenario: scenario, flowCase: flowCase, microchip: microchip, photo: photo, requestTimeout: requestTimeout)
        proxy.begin(faults: scenario.faults, holdLimit: holdLimit)
        var seen = 0, abandonedSeen = 0
        func record(_ action: UserAction, _ turn: AppTurn) {
            let all = proxy.exchanges(settlingFor: holdLimit + 1)
            let abandoned = proxy.abandonedConnections
            run.turns.append(ScenarioTurn(
                action: action, turn: turn, exchanges: Array(all[min(seen, all.count)...]), requestsBefore: seen,
                abandonedConnections: abandoned - abandonedSeen))
            (seen, abandonedSeen) = (all.count, abandoned)
        }
        let network = SubmissionNetwork(baseURL: proxyURL, requestTimeout: requestTimeout, photoPath: photoPath)
        let (report, first) = app.submit(flowCase, over: network)
        record(.submit, first)
        var last = first
        var alerts = 0
        let maxAttempts = scenario.faults.count + 2
        while case .success(.alert) = last.answer, run.attempts.count < maxAttempts {
            if alerts < scenario.cancels.count, scenario.cancels[alerts] {
                let cancelled = app.cancel(report: report)
                record(.cancel, cancelled)
                guard case .success = cancelled.answer else { break }
            }
            alerts += 1
            last = app.tryAgain(report: report)
            record(.tryAgain, last)
        }
        inspectAndCleanUp(&run)
        return run
    }

    /// The most runs of a scenario the machine disturbed (``ScenarioRun/isDisturbed``) before it
    /// is left unjudged.
    package static let runsPerScenario = 3

    /// Runs `scenario` on `app`, again when the machine disturbed the run (``ScenarioRun/isDisturbed``)
    /// or the app gave up on a held answer too soon (``ScenarioRun/gaveUpTooSoon``: a stall between
    /// the app's clock starting and its request arriving looks the same once), at most `attempts`
    /// times in all; the last run, and how many were repeated.
    package func runUndisturbed(
        _ scenario: SubmissionScenario, on app: any SubmittingApp, attempts: Int = runsPerScenario
    ) -> (run: ScenarioRun, repeated: Int) {
        var run = self.run(scenario, on: app)
        var repeated = 0
        while (run.isDisturbed || run.gaveUpTooSoon) && repeated + 1 < attempts {
            repeated += 1
            run = self.run(scenario, on: app)
        }
        return (run, repeated)
    }

    /// Looks up every announcement the scenario's creates made (details, and the photo's bytes),
    /// then deletes them with the admin token.
    private func inspectAndCleanUp(_ run: inout ScenarioRun) {
        for exchange in run.exchanges {
            guard let request = exchange.request, Self.isCreate(request), case .success(let answer)? = exchange.backendAnswer,
                answer.status == 201, let body = try? JSONValue.parse(answer.body), let id = body["id"]?.stringValue,
                let password = body["managementPassword"]?.stringValue
            else { continue }
            var delivered = false
            if case .answered = exchange.delivery { delivered = true }
            run.created.append(CreatedAnnouncement(id: id, password: password, request: exchange.index, deliveredToApp: delivered))
        }
        for index in run.created.indices {
            // An id that is no single path segment is never sent back (see AnnouncementPath).
            guard let path = try? AnnouncementPath(run.created[index].id),
                case .success(let details) = target.sendOutsideBudgetNow(BackendTarget.getRequest(path.details)), details.status == 200
            else { continue }
            run.created[index].existsAtEnd = true
            let url = (try? JSONValue.parse(details.body))?["photoUrl"]?.stringValue
            run.created[index].photoURL = url
            if let url, Self.isImagePath(url, of: path),
                case .success(let image) = target.sendOutsideBudgetNow(TransportRequest(method: "GET", path: url))
            {
                run.created[index].servesThePhoto = image.status == 200 && image.body == run.photo
            }
            if let token = target.adminToken {
                _ = target.sendOutsideBudgetNow(BackendTarget.adminDeleteRequest(path, authorization: token))
            }
        }
    }

    /// Whether `url` (a `photoUrl` the backend answered) is the `/images` path of `announcement`'s
    /// photo, `/images/{id}.{ext}` with an extension of letters: only then is it fetched.
    static func isImagePath(_ url: String, of announcement: AnnouncementPath) -> Bool {
        let prefix = "/images/\(announcement.segment)."
        guard url.hasPrefix(prefix) else { return false }
        let ext = url.dropFirst(prefix.count)
        return !ext.isEmpty && ext.count <= 8 && ext.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
    }

    /// Whether `request` is the create.
    static func isCreate(_ request: TransportRequest) -> Bool {
        request.method == "POST" && request.path.split(separator: "?").first == "/api/v1/announcements"
    }

    /// The announcement id of a photo upload, if `request` is one.
    static func uploadId(_ request: TransportRequest) -> String? {
        guard request.method == "POST" else { return nil }
        let parts = request.path.split(separator: "?").first?.split(separator: "/", omittingEmptySubsequences: false) ?? []
        guard parts.count == 6, parts[1] == "api", parts[2] == "v1", parts[3] == "announcements", parts[5] == "photos" else { return nil }
        return String(parts[4])
    }
}
