import Foundation
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import PetSpotConcurrency
import PetSpotTestSupport
import Testing
@testable import PetSpotMockBackend

/// Every planted defect, observed through the HTTP API: the mock without it answers one thing,
/// with it another (in the profiles the defect is for; elsewhere it changes nothing).
@Suite("Planted defects", .onOwnThreads)
struct MockDefectTests {
    /// What a client sees of one defect.
    struct Probe: CustomTestStringConvertible, Sendable {
        let defect: MockDefect
        /// Runs the requests that expose the defect and returns what a client observes.
        let observe: @Sendable (MockBackend) -> String
        let healthy: @Sendable (BackendProfile) -> String
        let broken: @Sendable (BackendProfile) -> String
        var testDescription: String { defect.name }

        init(_ defect: MockDefect, healthy: String, broken: String, observe: @escaping @Sendable (MockBackend) -> String) {
            self.init(defect, healthy: { _ in healthy }, broken: { _ in broken }, observe: observe)
        }

        init(_ defect: MockDefect, healthy: @escaping @Sendable (BackendProfile) -> String,
             broken: @escaping @Sendable (BackendProfile) -> String, observe: @escaping @Sendable (MockBackend) -> String) {
            self.defect = defect
            self.healthy = healthy
            self.broken = broken
            self.observe = observe
        }
    }

    // MARK: Observation helpers

    static func status(_ backend: MockBackend, _ method: String, _ target: String, headers: [(String, String)] = []) -> String {
        String(backend.answer(request(method, target, headers: headers)).status)
    }

    static func createStatus(_ backend: MockBackend, _ changes: [(String, JSONValue)] = [], removing: [String] = []) -> String {
        String(backend.answer(createRequest(createBody(changes, removing: removing))).status)
    }

    static func createField(_ backend: MockBackend, _ changes: [(String, JSONValue)] = [], removing: [String] = []) -> String {
        json(backend.answer(createRequest(createBody(changes, removing: removing))))["error"]?["field"]?.stringValue ?? "none"
    }

    static func echoed(_ backend: MockBackend, _ field: String, _ value: JSONValue) -> String {
        json(backend.answer(createRequest(createBody([(field, value)]))))[field]?.serialized() ?? "absent"
    }

    /// Creates an announcement with a photo (`content`, declared `declaredType`) and returns its id and password.
    static func withPhoto(_ backend: MockBackend, _ content: [UInt8] = tinyPNG, declaredType: String = "image/png",
                          latitude: Double = 52.2297) -> (id: String, password: String) {
        let (id, password) = createAnnouncement(backend, [("locationLatitude", .number(JSONNumber(latitude))), ("locationLongitude", 21.0122)])
        _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a", contentType: declaredType, content: content)])
        return (id, password)
    }

    static func listCount(_ backend: MockBackend, _ query: String) -> String {
        let response = backend.answer(request("GET", "/api/v1/announcements\(query)"))
        guard response.status == 200 else { return "status \(response.status)" }
        return String(json(response)["data"]?.arrayValue?.count ?? -1)
    }

    /// `rows` announcements with a photo near the probes' centre, then the unfiltered and the
    /// located list's counts and whether the located list holds the oldest of them.
    static func pageProbe(_ backend: MockBackend, rows: Int) -> String {
        let oldest = withPhoto(backend).id
        for _ in 1..<rows { _ = withPhoto(backend) }
        let located = json(backend.answer(request("GET", "/api/v1/announcements?lat=\(north - 0.0045)&lng=21.0122")))
        let listed = (located["data"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == oldest }
        return listCount(backend, "") + " " + listCount(backend, "?lat=\(north - 0.0045)&lng=21.0122") + (listed ? ", oldest listed" : ", oldest left out")
    }

    static func deleteStatus(_ backend: MockBackend, id: String, token: String?) -> String {
        status(backend, "DELETE", "/api/admin/v1/announcements/\(id)", headers: token.map { [("Authorization", $0)] } ?? [])
    }

    /// Runs `bodies` on threads of their own at once (each sends its requests as a client would)
    /// and returns their results in order.
    static func atOnce(_ bodies: [@Sendable () -> String]) -> [String] {
        let results = Locked<[Int: String]>([:])
        for (index, body) in bodies.enumerated() {
            Thread { let value = body(); results.withLock { $0[index] = value } }.start()
        }
        let deadline = Date().addingTimeInterval(20)
        return results.withLock(waitingUntil: deadline, for: { $0.count == bodies.count }) { results, _ in
            bodies.indices.map { results[$0] ?? "timeout" }
        }
    }

    /// Uploads `content` as a PNG file.
    static func uploadPNG(_ backend: MockBackend, _ owner: (id: String, password: String), _ content: [UInt8]) -> String {
        String(upload(backend, id: owner.id, password: owner.password, parts: [TestPart(name: "photo", filename: "a.png", content: content)]).status)
    }

    static let adminToken = MockBackend.defaultAdminToken
    static let north = 52.2297   // the list probes' centre (lng 21.0122); 0.009 degrees of latitude ≈ 1 km

    // MARK: The probes

    static let probes: [Probe] = [
        // List
        Probe(.listShowsPhotoless, healthy: "0", broken: "1") { backend in
            _ = createAnnouncement(backend)
            return listCount(backend, "")
        },
        Probe(.listDefaultRange10km, healthy: "1", broken: "2") { backend in
            _ = withPhoto(backend)
            _ = withPhoto(backend, latitude: north + 0.063)   // 7 km
            // Queried 0.5 km south of the first: at its exact point production's rounding defect
            // can leave it out.
            return listCount(backend, "?lat=\(north - 0.0045)&lng=21.0122")
        },
        Probe(.listRangeRoundedInclusive, healthy: "0", broken: "1") { backend in
            _ = withPhoto(backend, latitude: north + 0.0477)   // 5.30 km
            return listCount(backend, "?lat=\(north)&lng=21.0122&range=5")
        },
        Probe(.listEarthRadiusMiles, healthy: "0", broken: "1") { backend in
            _ = withPhoto(backend, latitude: north + 0.054)   // 6.0 km, 3.7 "km" on a sphere of 3959
            return listCount(backend, "?lat=\(north)&lng=21.0122&range=5")
        },
        Probe(.listLatitudeUnchecked, healthy: "400", broken: "200") { status($0, "GET", "/api/v1/announcements?lat=91&lng=0") },
        Probe(.listPartnerOptional, healthy: "400", broken: "200") { status($0, "GET", "/api/v1/announcements?lat=1") },
        Probe(.listRangeZeroAccepted, healthy: "400", broken: "200") { status($0, "GET", "/api/v1/announcements?lat=1&lng=1&range=0") },
        Probe(.listRangeNegativeAccepted, healthy: "400", broken: "200") { status($0, "GET", "/api/v1/announcements?lat=1&lng=1&range=-5") },
        Probe(.listRangeFractionAccepted, healthy: "400", broken: "200") { status($0, "GET", "/api/v1/announcements?lat=1&lng=1&range=1.5") },
        Probe(.listStrictNumberParsing, healthy: "200", broken: "400") { status($0, "GET", "/api/v1/announcements?lat=50.06abc&lng=21") },
        Probe(.listEmptyParameterRejected, healthy: "200", broken: "400") { status($0, "GET", "/api/v1/announcements?lat=&lng=") },
        Probe(.listPage50, healthy: "51 51, oldest listed", broken: "50 50, oldest left out") { backend in pageProbe(backend, rows: 51) },
        Probe(.listPage100, healthy: "101 101, oldest listed", broken: "100 100, oldest left out") { backend in pageProbe(backend, rows: 101) },
        // Details
        Probe(.detailsLeaksPassword, healthy: "false", broken: "true") { backend in
            let (id, _) = createAnnouncement(backend)
            return String(json(backend.answer(request("GET", "/api/v1/announcements/\(id)")))["managementPassword"] != nil)
        },
        Probe(.detailsUnknownID200, healthy: "404", broken: "200") { status($0, "GET", "/api/v1/announcements/\(UUID().uuidString.lowercased())") },
        Probe(.detailsMalformedID500, healthy: "404", broken: "500") { status($0, "GET", "/api/v1/announcements/not-a-uuid") },
        // Photo and /images
        Probe(.photoURLDeclaredType, healthy: "jpeg", broken: "png") { backend in
            let (id, _) = withPhoto(backend, tinyJPEG, declaredType: "image/png")
            return backend.storedAnnouncement(id: id)?["photoUrl"]?.stringValue?.split(separator: ".").last.map(String.init) ?? "none"
        },
        Probe(.imagesWrongContentType, healthy: "image/png", broken: "application/octet-stream") { backend in
            let (id, _) = withPhoto(backend)
            return backend.answer(request("GET", "/images/\(id).png")).headers["Content-Type"] ?? "none"
        },
        Probe(.imagesStaleBytes, healthy: "second", broken: "first") { backend in
            let (id, password) = withPhoto(backend, tinyPNG + [1])
            _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "b", content: tinyPNG + [2])])
            return backend.answer(request("GET", "/images/\(id).png")).body.last == 2 ? "second" : "first"
        },
        Probe(.imagesAnyExtension, healthy: "404", broken: "200") { backend in
            let (id, _) = withPhoto(backend)
            return status(backend, "GET", "/images/\(id).gif")
        },
        Probe(.photoSecondUploadIgnored, healthy: "jpeg", broken: "png") { backend in
            let (id, password) = withPhoto(backend)
            _ = upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "b", content: tinyJPEG)])
            return backend.storedAnnouncement(id: id)?["photoUrl"]?.stringValue?.split(separator: ".").last.map(String.init) ?? "none"
        },
        Probe(.photoKeptAfterDelete, healthy: "404", broken: "200") { backend in
            let (id, _) = withPhoto(backend)
            _ = deleteStatus(backend, id: id, token: adminToken)
            return status(backend, "GET", "/images/\(id).png")
        },
        Probe(.photo403Before404, healthy: "404", broken: "403") { backend in
            let id = UUID().uuidString.lowercased()
            return String(backend.answer(photoRequest(id: id, authorization: basicAuthorization(user: id, password: "123456"), content: tinyPNG)).status)
        },
        Probe(.photoFileBeforeAuth, healthy: "401", broken: "400") { backend in
            let (id, _) = createAnnouncement(backend)
            let (body, contentType) = multipart([TestPart(name: "note", filename: nil, content: [0x41])])
            let response = backend.answer(request("POST", "/api/v1/announcements/\(id)/photos", headers: [("Content-Type", contentType)], body: body))
            return String(response.status)
        },
        Probe(.photoAPNGAccepted, healthy: "400", broken: "201") { backend in
            let (id, password) = createAnnouncement(backend)
            let apng = png(chunks: ["IHDR", "acTL", "IDAT", "IEND"])
            return String(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: apng)]).status)
        },
        Probe(.photoSizeLimitInclusive, healthy: "413", broken: "201") { backend in
            let (id, password) = createAnnouncement(backend)
            let exactly20MB = tinyPNG + [UInt8](repeating: 0, count: MockBackend.photoSizeLimit - tinyPNG.count)
            return String(upload(backend, id: id, password: password, parts: [TestPart(name: "photo", filename: "a.png", content: exactly20MB)]).status)
        },
        // Admin delete
        Probe(.deleteNoTokenAccepted, healthy: "401", broken: "204") { deleteStatus($0, id: createAnnouncement($0).id, token: nil) },
        Probe(.deleteAnyTokenAccepted, healthy: "401", broken: "204") { deleteStatus($0, id: createAnnouncement($0).id, token: "guess") },
        Probe(.deleteBearerAccepted, healthy: "401", broken: "204") { deleteStatus($0, id: createAnnouncement($0).id, token: "Bearer \(adminToken)") },
        Probe(.deleteKeepsAnnouncement, healthy: "204 404", broken: "204 200") { backend in
            let (id, _) = createAnnouncement(backend)
            return deleteStatus(backend, id: id, token: adminToken) + " " + status(backend, "GET", "/api/v1/announcements/\(id)")
        },
        Probe(.deleteUnknown204, healthy: "404", broken: "204") { deleteStatus($0, id: UUID().uuidString.lowercased(), token: adminToken) },
        // Echo
        Probe(.echoHTMLKept, healthy: #""Rex""#, broken: #""<b>Rex</b>""#) { echoed($0, "petName", "<b>Rex</b>") },
        Probe(.echoTrimmed, healthy: #"" Rex ""#, broken: #""Rex""#) { echoed($0, "petName", " Rex ") },
        Probe(.echoEmptyStringKept, healthy: "null", broken: #""""#) { echoed($0, "petName", "") },
        Probe(.echoNumbersAsStrings, healthy: "52.5", broken: #""52.5""#) { echoed($0, "locationLatitude", 52.5) },
        // Routing
        Probe(.routingHTML404, healthy: "application/json; charset=utf-8", broken: "text/html; charset=utf-8") { backend in
            backend.answer(request("GET", "/nope")).headers["Content-Type"] ?? "none"
        },
        Probe(.routingNoCORS, healthy: "*", broken: "none") { $0.answer(request("GET", "/api/health")).headers["Access-Control-Allow-Origin"] ?? "none" },
        Probe(.routingHead404, healthy: "200", broken: "404") { status($0, "HEAD", "/api/health") },
        Probe(.routingOptions404, healthy: "204", broken: "404") { status($0, "OPTIONS", "/api/v1/announcements") },
        Probe(.routingErrorsTextPlain, healthy: "application/json; charset=utf-8", broken: "text/plain; charset=utf-8") { backend in
            backend.answer(createRequest(createBody([("status", "CLOSED")]))).headers["Content-Type"] ?? "none"
        },
        Probe(.routingGzipIgnored, healthy: { _ in "201" }, broken: { $0 == .production ? "500" : "400" }) { backend in
            let body = storedGzip(JSONValue.object(createBody()).serializedBytes())
            return String(backend.answer(framedCreateRequest(body, extraHeaders: [("Content-Encoding", "gzip")])).status)
        },
        Probe(.routingCharsetIgnored, healthy: "500", broken: "201") { backend in
            String(backend.answer(framedCreateRequest(JSONValue.object(createBody()).serializedBytes(),
                                                      contentType: "application/json; charset=latin1")).status)
        },
        Probe(.routingBadEscape404, healthy: "500", broken: "404") { status($0, "GET", "/api/v1/announcements/%E0%A4%A") },
        // Create
        Probe(.createMicrochipMax15, healthy: "201", broken: "400") { createStatus($0, [("microchipNumber", .string("9" + uniqueMicrochip() + "1234"))]) },
        Probe(.createDateNoRollover, healthy: "201", broken: "400") { createStatus($0, [("lastSeenDate", "2025-02-30")]) },
        Probe(.createEmptyOptionalRefused, healthy: "201", broken: "400") { createStatus($0, [("petName", "")]) },
        Probe(.createStatusCaseInsensitive, healthy: "400", broken: "201") { createStatus($0, [("status", "missing")]) },
        Probe(.createContactUnchecked, healthy: "400", broken: "201") { createStatus($0, removing: ["email", "phone"]) },
        Probe(.createUnknownKeyFirst, healthy: "age", broken: "extra") { createField($0, [("age", 0), ("extra", 1)]) },
        Probe(.createContactBeforeFields, healthy: "age", broken: "contact") { createField($0, [("age", 0)], removing: ["email", "phone"]) },
        Probe(.createDeepJSON500, healthy: "400", broken: "500") { String($0.answer(framedCreateRequest(MockBodyParsingTests.nestedSpecies(depth: 10_000))).status) },
        Probe(.createHugeExponent500, healthy: "201", broken: "500") { backend in
            String(backend.answer(framedCreateRequest(MockBodyParsingTests.body("locationLatitude", literal: "1e-99999999999999999999"))).status)
        },
        Probe(.createBodyLimit500, healthy: "413", broken: "500") { createStatus($0, [("description", .string(String(repeating: "x", count: 110_000)))]) },
        // Messages
        Probe(.messagesGeneric, healthy: "status must be either MISSING or FOUND", broken: "Validation failed") { backend in
            message(backend.answer(createRequest(createBody([("status", "CLOSED")])))) ?? "none"
        },
        Probe(.messagesZodDefaults, healthy: "latitude must be between -90 and 90", broken: "Number must be less than or equal to 90") { backend in
            message(backend.answer(createRequest(createBody([("locationLatitude", 91)])))) ?? "none"
        },
        Probe(.messagesUnknownKeyUnnamed, healthy: "caregiverPhone is not a valid field", broken: "is not a valid field") { backend in
            message(backend.answer(createRequest(createBody([("caregiverPhone", "1")])))) ?? "none"
        },
        // Sequences
        Probe(.sequenceMicrochipKeptAfterDelete, healthy: "201", broken: "409") { backend in
            let chip = uniqueMicrochip()
            let (id, _) = createAnnouncement(backend, [("microchipNumber", .string(chip))])
            _ = deleteStatus(backend, id: id, token: adminToken)
            return createStatus(backend, [("microchipNumber", .string(chip))])
        },
        Probe(.sequenceIdsReusedAfterDelete, healthy: "new", broken: "reused") { backend in
            let (id, _) = createAnnouncement(backend)
            _ = deleteStatus(backend, id: id, token: adminToken)
            return createAnnouncement(backend).id == id ? "reused" : "new"
        },
        Probe(.sequenceDetailsCacheStaleAfterUpload, healthy: "png", broken: "null") { backend in
            let owner = createAnnouncement(backend)
            _ = backend.answer(request("GET", "/api/v1/announcements/\(owner.id)"))
            _ = uploadPNG(backend, owner, tinyPNG)
            let url = json(backend.answer(request("GET", "/api/v1/announcements/\(owner.id)")))["photoUrl"]?.stringValue
            return url?.split(separator: ".").last.map(String.init) ?? "null"
        },
        Probe(.sequenceListCacheStale, healthy: "1 2 1", broken: "1 1 1") { backend in
            _ = withPhoto(backend)
            let second = createAnnouncement(backend)
            let before = listCount(backend, "")
            _ = uploadPNG(backend, second, tinyPNG)
            let afterUpload = listCount(backend, "")
            _ = deleteStatus(backend, id: second.id, token: adminToken)
            // A create invalidates the cache: the list is right again.
            _ = createAnnouncement(backend)
            return "\(before) \(afterUpload) \(listCount(backend, ""))"
        },
        Probe(.sequenceSoftDeleteListed, healthy: "0 404", broken: "1 404") { backend in
            let (id, _) = withPhoto(backend)
            _ = deleteStatus(backend, id: id, token: adminToken)
            return listCount(backend, "") + " " + status(backend, "GET", "/api/v1/announcements/\(id)")
        },
        Probe(.sequenceUploadAfterDelete201, healthy: "404", broken: "201") { backend in
            let owner = createAnnouncement(backend)
            _ = deleteStatus(backend, id: owner.id, token: adminToken)
            return uploadPNG(backend, owner, tinyPNG)
        },
        Probe(.sequencePasswordRehashedOnUpload, healthy: "201 201", broken: "201 403") { backend in
            let owner = createAnnouncement(backend)
            return uploadPNG(backend, owner, tinyPNG) + " " + uploadPNG(backend, owner, tinyPNG + [1])
        },
        Probe(.sequenceListLimit20, healthy: "21 21", broken: "20 20") { backend in
            for _ in 0..<21 { _ = withPhoto(backend) }
            return listCount(backend, "") + " " + listCount(backend, "?lat=\(north - 0.0045)&lng=21.0122")
        },
        Probe(.sequenceListBucket10, healthy: "11 11", broken: "11 10") { backend in
            for _ in 0..<11 { _ = withPhoto(backend) }
            return listCount(backend, "") + " " + listCount(backend, "?lat=\(north - 0.0045)&lng=21.0122")
        },
        // Concurrency
        Probe(.concurrencyDuplicateMicrochipBoth201, healthy: "one 201", broken: "two 201") { backend in
            let chip = uniqueMicrochip()
            let statuses = atOnce([{ createStatus(backend, [("microchipNumber", .string(chip))]) }, { createStatus(backend, [("microchipNumber", .string(chip))]) }])
            return statuses.filter { $0 == "201" }.count == 1 ? "one 201" : "two 201"
        },
        Probe(.concurrencyLostInsert, healthy: "200 200", broken: "200 404") { backend in
            let ids = atOnce([{ createAnnouncement(backend).id }, { createAnnouncement(backend).id }])
            return ids.map { status(backend, "GET", "/api/v1/announcements/\($0)") }.sorted().joined(separator: " ")
        },
        Probe(.concurrencyUploadsCrossed, healthy: "own own", broken: "crossed") { backend in
            let first = createAnnouncement(backend), second = createAnnouncement(backend)
            _ = atOnce([{ uploadPNG(backend, first, tinyPNG + [1]) }, { uploadPNG(backend, second, tinyPNG + [2]) }])
            let served = [first.id, second.id].map { backend.answer(request("GET", "/images/\($0).png")).body.last }
            return served == [1, 2] ? "own own" : "crossed"
        },
        Probe(.concurrencyDeleteTwice204, healthy: "204 404", broken: "204 204") { backend in
            let id = createAnnouncement(backend).id
            return atOnce([{ deleteStatus(backend, id: id, token: adminToken) }, { deleteStatus(backend, id: id, token: adminToken) }])
                .sorted().joined(separator: " ")
        },
    ]

    @Test("every defect has a probe, and there are at least 30 over every surface")
    func coverage() {
        #expect(Set(Self.probes.map(\.defect)) == Set(MockDefect.allCases))
        #expect(Self.probes.count == MockDefect.allCases.count, "one probe per defect")
        #expect(MockDefect.allCases.count >= 30)
        for surface in MockDefect.Surface.allCases { #expect(MockDefect.defects(of: surface).count >= 3, "\(surface)") }
        #expect(Set(MockDefect.allCases.map(\.summary)).count == MockDefect.allCases.count, "summaries are distinct")
    }

    @Test("each defect changes what a client sees, in its profiles only", arguments: probes)
    func defectIsObservable(probe: Probe) {
        for profile in BackendProfile.allCases {
            let healthy = probe.observe(MockBackend(profile: profile, clock: { fixedNow }))
            let broken = probe.observe(MockBackend(profile: profile, defects: [probe.defect], clock: { fixedNow }))
            if probe.defect.profiles.contains(profile) {
                #expect(healthy == probe.healthy(profile), "\(profile): without the defect")
                #expect(broken == probe.broken(profile), "\(profile): with the defect")
                #expect(healthy != broken)
            } else {
                #expect(healthy == broken, "\(profile): the defect is for other profiles and changes nothing")
            }
        }
    }

    @Test("defects combine, and travel through MockServerOptions to the server")
    func overHTTP() throws {
        var options = MockServerOptions(profile: .production)
        options.defects = [.routingNoCORS, .deleteAnyTokenAccepted]
        let server = MockHTTPServer(options: options, clock: { fixedNow })
        let port = try server.start()
        defer { server.stop() }
        #expect(server.backend.defects == [.routingNoCORS, .deleteAnyTokenAccepted])
        let connection = try RawHTTPConnection(port: port)
        let created = try #require(try connection.send(framedCreateRequest(JSONValue.object(createBody()).serializedBytes())))
        #expect(created.status == 201 && created.headers["Access-Control-Allow-Origin"] == nil)
        let id = try #require(json(created)["id"]?.stringValue)
        let deleted = try connection.send(request("DELETE", "/api/admin/v1/announcements/\(id)", headers: [("Authorization", "guess")]))
        #expect(deleted?.status == 204)
    }

    @Test("names parse from comma lists; unknown names are refused by name")
    func parsing() throws {
        #expect(try MockDefect.parseList("echo-html-kept, routing-no-cors") == [.echoHTMLKept, .routingNoCORS])
        #expect(throws: MockDefectParseError(name: "echo-html")) { try MockDefect.parseList("echo-html-kept,echo-html") }
        #expect(throws: MockDefectParseError(name: "")) { try MockDefect.parseList("echo-html-kept,") }
        #expect(MockDefectParseError(name: "x").description == "unknown defect 'x' (see --break list)")
        for defect in MockDefect.allCases {
            #expect(defect.name.hasPrefix(defect.surface == .adminDelete ? "delete-" : defect.surface == .photo ? "" : "\(defect.surface.rawValue)-"),
                    "\(defect.name) is named after its surface")
            #expect(defect.description == "\(defect.name): \(defect.summary)")
        }
    }
}
