import Foundation
import PetSpotContractGroups
import PetSpotContractKit
import PetSpotHTTP
import PetSpotJSON
import PetSpotMockBackend
import PetSpotRunner
import Testing

/// What every row of the route table needs besides itself: a contract group that checks its
/// surface, planted defects that break it, and a mock that serves it. Each missing piece is one
/// line naming the row and what is missing.
enum RouteTableAudit {
    /// A contract group as the audit sees it.
    struct Group {
        let name: String
        let surfaces: Set<ContractSurface>
    }

    /// The fewest planted defects a row's surface must have.
    static let minimumDefects = 3

    /// The backend groups of the registry.
    static var registeredGroups: [Group] {
        ContractRegistry.groups.compactMap { $0 as? any BackendContractGroup }.map { Group(name: $0.name, surfaces: $0.surfaces) }
    }

    /// `ROW: what is missing` for every piece a row of `routes` lacks; `answer` says what the mock
    /// answers a valid request to a row with (a status, or why there is no request).
    static func problems(
        _ routes: [BackendRoute], groups: [Group], defects: (ContractSurface) -> [MockDefect],
        answer: (BackendRoute) -> Result<Int, RouteFixture.Missing>
    ) -> [String] {
        var problems: [String] = []
        for route in routes {
            let row = "\(route) (\(route.operation.id))"
            if !groups.contains(where: { $0.surfaces.contains(route.surface) }) {
                problems.append("\(row): no registered contract group has surface '\(route.surface.rawValue)' (ContractRegistry.groups)")
            }
            let planted = defects(route.surface)
            if planted.count < minimumDefects {
                problems.append(
                    "\(row): \(planted.count) planted defects of surface '\(route.surface.rawValue)', at least \(minimumDefects) needed (MockDefect)")
            }
            switch answer(route) {
            case .success(let status) where status == route.success.status:
                break
            case .success(let status):
                problems.append("\(row): the mock answers a valid request \(status), not \(route.success.status) (MockBackend.dispatch)")
            case .failure(let missing):
                problems.append("\(row): no valid request: \(missing.reason)")
            }
        }
        return problems
    }
}

/// A mock holding one announcement with a photo, and a valid request to any row of the route
/// table, made from what the row declares: its path parameters filled from that announcement,
/// its credentials, its body (a JSON body is its schema's first example).
struct RouteFixture {
    /// Why a valid request to a row cannot be made.
    struct Missing: Error {
        let reason: String
    }

    let backend: MockBackend
    let documents: ContractDocuments
    /// Values of path parameters, by name.
    let pathValues: [String: String]
    let password: String

    /// 2025-06-15T12:00:00Z: after every schema example's lastSeenDate.
    static let now = Date(timeIntervalSince1970: 1_749_988_800)

    init(profile: BackendProfile) throws {
        documents = try ContractDocuments.load()
        backend = MockBackend(profile: profile, clock: { RouteFixture.now })
        var body = try #require(documents[.createRequest]["examples"]?[0]?.objectValue)
        // The row's own create sends the example as it is: this one must not take its microchip number.
        body["microchipNumber"] = nil
        let created = backend.answer(HTTPRequest(
            method: "POST", target: "/api/v1/announcements", headers: ["Content-Type": "application/json"],
            body: JSONValue.object(body).serializedBytes()))
        try #require(created.status == 201, "the fixture's create: \(created.bodyText)")
        let answer = try JSONValue.parse(created.body)
        let id = try #require(answer["id"]?.stringValue)
        password = try #require(answer["managementPassword"]?.stringValue)
        let (photoBody, contentType) = RouteFixture.photoBody()
        let uploaded = backend.answer(HTTPRequest(
            method: "POST", target: "/api/v1/announcements/\(id)/photos",
            headers: ["Content-Type": contentType, "Authorization": basicAuthorization("\(id):\(password)")], body: photoBody))
        try #require(uploaded.status == 201, "the fixture's upload: \(uploaded.bodyText)")
        let photoURL = try #require(backend.storedAnnouncement(id: id)?["photoUrl"]?.stringValue)
        pathValues = ["id": id, "fileName": String(photoURL.split(separator: "/").last ?? "")]
    }

    /// A multipart body with one `photo` part holding a PNG.
    static func photoBody() -> (body: [UInt8], contentType: String) {
        let boundary = "RouteTableBoundary"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"pet.png\"\r\n".utf8)
        body += Array("Content-Type: image/png\r\n\r\n".utf8)
        body += Array(SampleImage.png(tag: "route-table"))
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// A valid request to `route`.
    func request(to route: BackendRoute) -> Result<HTTPRequest, Missing> {
        var path = ""
        for segment in route.pattern.segments {
            switch segment {
            case .fixed(let text):
                path += "/" + text
            case .parameter(let parameter):
                guard let value = pathValues[parameter.name] else {
                    return .failure(Missing(reason: "the fixture has no value for {\(parameter.name)} (RouteFixture.pathValues)"))
                }
                path += "/" + value
            }
        }
        var headers = HTTPHeaders()
        switch route.authorization {
        case .none: break
        case .managementPassword: headers.add("Authorization", basicAuthorization("\(pathValues["id"] ?? ""):\(password)"))
        case .adminToken: headers.add("Authorization", MockBackend.defaultAdminToken)
        }
        var body: [UInt8] = []
        switch route.request {
        case .none:
            break
        case .json(let schema, _):
            guard let example = documents[schema]["examples"]?[0] else {
                return .failure(Missing(reason: "\(schema.fileName) has no example to send"))
            }
            headers.add("Content-Type", "application/json")
            body = example.serializedBytes()
        case .photo:
            let (photo, contentType) = RouteFixture.photoBody()
            headers.add("Content-Type", contentType)
            body = photo
        }
        return .success(HTTPRequest(method: route.method, target: path, headers: headers, body: body))
    }

    /// The status the mock answers a valid request to `route` with.
    func status(of route: BackendRoute) -> Result<Int, Missing> {
        request(to: route).map { backend.answer($0).status }
    }
}

@Suite("the route table: one row per route, read by the mock, the OpenAPI document and this audit")
struct RouteTableTests {
    @Test("every row has a contract group of its surface, 3 planted defects of it, and the mock's success answer", arguments: BackendProfile.allCases)
    func everyRowIsServedCheckedAndBroken(profile: BackendProfile) throws {
        let problems = RouteTableAudit.problems(
            BackendRoute.table, groups: RouteTableAudit.registeredGroups, defects: MockDefect.defects(of:),
            answer: { route in
                // A fresh mock per row: a delete must not take the announcement from the next row.
                Result { try RouteFixture(profile: profile) }.mapError { RouteFixture.Missing(reason: "the fixture: \($0)") }
                    .flatMap { $0.status(of: route) }
            })
        #expect(problems == [], "\(problems.joined(separator: "\n"))")
    }

    @Test("the audit names the row and what it is missing")
    func auditNamesWhatIsMissing() throws {
        let fixture = try RouteFixture(profile: .strict)
        let details = try #require(BackendRoute.table.first { $0.handler == .details })
        let withoutDetailsGroup = RouteTableAudit.registeredGroups.filter { !$0.surfaces.contains(.details) }
        let fewDefects = { (surface: ContractSurface) in Array(MockDefect.defects(of: surface).prefix(2)) }
        let unknownParameter = RouteParameter(
            "slug", .path(malformedEscape: .failsRequest), component: "slug", summary: "A slug.", schema: ["type": "string"])
        let unservedRoute = BackendRoute(
            "PUT", RoutePattern("Slug", ["api", "v1", "slugs", .parameter(unknownParameter)]), surface: .details, handler: .details,
            success: RouteAnswer(200, "The slug.", body: .none), errorStatuses: [],
            operation: RouteOperation("putSlug", tag: .announcements, summary: "A slug", description: "A route the mock does not serve."))
        let problems = RouteTableAudit.problems(
            [details, unservedRoute], groups: withoutDetailsGroup, defects: fewDefects,
            answer: { fixture.status(of: $0) })
        #expect(problems == [
            "GET /api/v1/announcements/{id} (getAnnouncement): no registered contract group has surface 'details' (ContractRegistry.groups)",
            "GET /api/v1/announcements/{id} (getAnnouncement): 2 planted defects of surface 'details', at least 3 needed (MockDefect)",
            "PUT /api/v1/slugs/{slug} (putSlug): no registered contract group has surface 'details' (ContractRegistry.groups)",
            "PUT /api/v1/slugs/{slug} (putSlug): 2 planted defects of surface 'details', at least 3 needed (MockDefect)",
            "PUT /api/v1/slugs/{slug} (putSlug): no valid request: the fixture has no value for {slug} (RouteFixture.pathValues)",
        ])
        let unrouted = BackendRoute(
            "PUT", .announcement, surface: .details, handler: .details,
            success: RouteAnswer(200, "The announcement.", body: .none), errorStatuses: [],
            operation: RouteOperation("putAnnouncement", tag: .announcements, summary: "Replace", description: "Not a route of the mock."))
        #expect(RouteTableAudit.problems([unrouted], groups: RouteTableAudit.registeredGroups, defects: MockDefect.defects(of:), answer: { fixture.status(of: $0) }) == [
            "PUT /api/v1/announcements/{id} (putAnnouncement): the mock answers a valid request 404, not 200 (MockBackend.dispatch)",
        ])
    }

    @Test("rows are unique: one per method and path, one operation id each, and the path names its parameters")
    func rowsAreUnique() {
        let table = BackendRoute.table
        #expect(Set(table.map(\.description)).count == table.count, "\(table.map(\.description))")
        let ids = table.map(\.operation.id) + Set(table.map(\.pattern)).flatMap { ["head\($0.name)", "preflight\($0.name)"] }
        #expect(Set(ids).count == ids.count, "\(ids.sorted())")
        for route in table {
            #expect(route.method == route.method.uppercased() && !["HEAD", "OPTIONS"].contains(route.method), "\(route): HEAD and OPTIONS have no rows")
            #expect(route.errorStatuses == route.errorStatuses.sorted() && route.errorStatuses.allSatisfy { $0 >= 400 }, "\(route)")
            let names = route.pattern.parameters.map(\.name) + route.queryParameters.map(\.name)
            #expect(Set(names).count == names.count, "\(route): parameter names")
        }
    }

    @Test("the mock's router reads the rows: each row's path with another method is 404, and production's case and slash rules hold")
    func routerReadsTheRows() throws {
        for profile in BackendProfile.allCases {
            let fixture = try RouteFixture(profile: profile)
            for route in BackendRoute.table {
                guard case .success(var request) = fixture.request(to: route) else { continue }
                request.method = "PATCH"
                let answer = fixture.backend.answer(request)
                #expect(answer.status == 404, "\(profile) PATCH \(route.pattern.template)")
                #expect((try? JSONValue.parse(answer.body))?["error"]?["code"] == "NOT_FOUND", "\(profile) PATCH \(route.pattern.template)")
            }
            let upperCase = fixture.backend.answer(HTTPRequest(method: "GET", target: "/API/Health/", headers: [:], body: []))
            #expect(upperCase.status == (profile == .production ? 200 : 404), "\(profile): /API/Health/")
        }
    }
}
