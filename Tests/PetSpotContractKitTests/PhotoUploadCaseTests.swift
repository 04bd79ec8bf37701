import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotContractKit

@Suite("Photo upload catalog")
struct PhotoUploadCaseTests {
    let catalog: PhotoUploadCatalog
    init() throws { catalog = try ContractDocuments.bundled().photoUploadCases }

    let credentials = PhotoCredentials(id: "0f8fad5b-d9cb-469f-a165-70867728950e", password: "482913")

    @Test("every documented check has a case with its status and code")
    func documentedChecks() {
        let answers = Set(catalog.cases.map { "\($0.expected.status) \($0.expected.code ?? "")" })
        for answer in ["401 UNAUTHENTICATED", "404 NOT_FOUND", "403 UNAUTHORIZED", "400 MISSING_FILE", "413 PAYLOAD_TOO_LARGE", "400 INVALID_FILE_FORMAT", "201 "] {
            #expect(answers.contains(answer), "\(answer)")
        }
        for item in catalog.cases where item.expected.code == "MISSING_FILE" { #expect(item.expected.field == "photo") }
        for item in catalog.cases where item.expected.code == "INVALID_FILE_FORMAT" { #expect(item.expected.field == "file") }
        for item in catalog.cases where item.inferred { #expect(item.note != nil, "\(item.id)") }
    }

    @Test("every case builds its header and file without unknown placeholders")
    func casesBuild() {
        for item in catalog.cases {
            let header = item.authorization.headerValue(with: credentials)
            #expect(header?.contains("{") != true, "\(item.id)")
            if case .none = item.authorization { #expect(header == nil) }
            if let file = item.file {
                let bytes = file.content.bytes()
                #expect(bytes.count == (file.content.size ?? PhotoContent.sample(file.content.kind).count), "\(item.id)")
            }
        }
    }

    @Test("Basic headers encode user:password after substitution")
    func basicHeaders() throws {
        let good = PhotoUploadCase.Authorization.basic(user: "{id}", password: "{password}")
        let decoded = try #require(good.headerValue(with: credentials).flatMap { Data(base64Encoded: String($0.dropFirst(6))) })
        #expect(String(decoding: decoded, as: UTF8.self) == "0f8fad5b-d9cb-469f-a165-70867728950e:482913")
        let wrong = PhotoUploadCase.Authorization.basic(user: "{id}", password: "{otherPassword}")
        #expect(wrong.headerValue(with: credentials) != good.headerValue(with: credentials))
        #expect(PhotoCredentials(id: "x", password: "100000").otherPassword == "100001")
        #expect(credentials.otherPassword == "100000")
        let noColon = PhotoUploadCase.Authorization.basicCredentials("{id}{password}")
        #expect(noColon.headerValue(with: credentials) == "Basic " + Data("0f8fad5b-d9cb-469f-a165-70867728950e482913".utf8).base64EncodedString())
        #expect(PhotoUploadCase.Authorization.header("Bearer {password}").headerValue(with: credentials) == "Bearer 482913")
    }

    @Test("content samples carry the right magic bytes and pad to size")
    func contentBytes() {
        #expect(PhotoContent(kind: .png).bytes().prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(PhotoContent(kind: .jpeg).bytes().prefix(3) == [0xFF, 0xD8, 0xFF])
        #expect(PhotoContent(kind: .pdf).bytes().prefix(5) == Array("%PDF-".utf8)[...])
        #expect(PhotoContent(kind: .empty).bytes().isEmpty)
        let big = PhotoContent(kind: .png, size: 20_971_520).bytes()
        #expect(big.count == 20_971_520 && big.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        let text = PhotoContent(kind: .text, size: 1000).bytes()
        #expect(text.count == 1000 && text.allSatisfy { $0 < 0x80 })
    }

    @Test("a file under another part name is production's known defect (500), a clear 400 in strict")
    func otherPartName() throws {
        let item = try #require(catalog[id: "file-under-other-name"])
        #expect(catalog.version == 2)
        #expect(item.file?.partName == "file")
        #expect(item.expected(for: .production) == ExpectedResponse(status: 500, code: "INTERNAL_SERVER_ERROR"))
        #expect(item.expected(for: .strict) == ExpectedResponse(status: 400, code: "MISSING_FILE", field: "photo"))
        #expect(item.knownProductionDefect != nil)
        #expect(catalog.cases.filter { $0.knownProductionDefect != nil }.map(\.id) == ["file-under-other-name"])
    }

    @Test("the size boundary sits at 20 MB")
    func sizeBoundary() throws {
        let tooLarge = try #require(catalog[id: "too-large"])
        let largest = try #require(catalog[id: "largest-accepted"])
        #expect(tooLarge.file?.content.size == 20 * 1024 * 1024)
        #expect(largest.file?.content.size == 20 * 1024 * 1024 - 1)
        #expect(largest.expected(for: .strict) == ExpectedResponse(status: 201))
    }

    @Test("malformed photo cases are refused with their key path", arguments: [
        (#"{"kind": "png", "size": 3}"#, "$.size", "3 is outside 68...67108864"),
        (#"{"kind": "gif"}"#, "$.kind", "unknown content kind \"gif\" (png, jpeg, pdf, text, empty)"),
    ])
    func malformedContent(text: String, path: String, reason: String) throws {
        #expect(throws: CatalogDecodingError(path: path, reason: reason)) { try PhotoContent.decode(CatalogNode(root: json(text))) }
    }

    @Test("an unknown authorization kind names its path")
    func badAuthorization() throws {
        let document = try json(#"""
            {"version": 1, "cases": [{"id": "x", "description": "d", "announcement": "created",
              "authorization": {"kind": "digest"}, "file": null, "expected": {"status": 401, "code": "UNAUTHENTICATED"}}]}
            """#)
        #expect(throws: CatalogDecodingError(path: "$.cases[0].authorization.kind", reason: "unknown authorization kind \"digest\" (none, basic, basicCredentials, header)")) {
            try PhotoUploadCatalog(json: document)
        }
    }
}

@Suite("Regression catalog")
struct RegressionCatalogTests {
    @Test("the bundled regressions decode, ids unique")
    func bundled() throws {
        let regressions = try ContractDocuments.bundled().regressions
        #expect(regressions.version == 1)
        #expect(regressions.cases.map(\.id).contains("east-of-utc-today-is-blocked"))
        #expect(Set(regressions.cases.map(\.id)).count == regressions.cases.count)
    }

    @Test("each kind decodes")
    func kinds() throws {
        let document = try json(#"""
            {"version": 1, "cases": [
              {"id": "a", "addedOn": "2026-12-01", "origin": "petspot-contracts check --seed 1", "kind": "createRequest",
               "input": {"species": "DOG"}, "expected": {"status": 400, "code": "MISSING_VALUE", "field": "sex"}},
              {"id": "b", "addedOn": "2026-12-01", "origin": "o", "kind": "clientPayload", "input": {}, "expected": {"valid": false}},
              {"id": "c", "addedOn": "2026-12-01", "origin": "o", "kind": "flow", "input": {"flow": "missing"},
               "expected": {"outcome": "blocked"}, "note": "n"}]}
            """#)
        let catalog = try RegressionCatalog(json: document)
        #expect(catalog.cases.map(\.id) == ["a", "b", "c"])
        #expect(catalog.cases[0].check == .createRequest(body: ["species": "DOG"], expected: ExpectedResponse(status: 400, code: "MISSING_VALUE", field: "sex"), strictExpected: nil))
        #expect(catalog.cases[1].check == .clientPayload(payload: [:], valid: false))
        #expect(catalog.cases[2].check == .flow(question: ["flow": "missing"], answer: ["outcome": "blocked"]))
    }

    @Test("a bad date names its path")
    func badDate() throws {
        let document = try json(#"{"version": 1, "cases": [{"id": "a", "addedOn": "1.12.2026", "origin": "o", "kind": "flow", "input": {}, "expected": {}}]}"#)
        #expect(throws: CatalogDecodingError(path: "$.cases[0].addedOn", reason: "expected a date YYYY-MM-DD")) { try RegressionCatalog(json: document) }
    }
}
