import Foundation
import PetSpotContractKit
import PetSpotJSON
import PetSpotModel
import Testing

@testable import PetSpotReleases

/// A small release with every kind of member, for the file tests.
func sampleRelease(name: String = "1.4", contractVersion: String = ContractSchemaName.majorVersion) -> RecordedRelease {
    let clock = Date(timeIntervalSince1970: 1_795_262_400)
    let payload: JSONObject = ([
        "species": "DOG", "sex": "MALE", "lastSeenDate": "2026-11-20", "locationLatitude": 52.2, "locationLongitude": 21.0,
        "email": "a@example.com", "phone": "600700800", "status": "MISSING", "microchipNumber": "123456789012345",
    ] as JSONValue).objectValue!
    var refused = payload
    refused["age"] = 41
    return RecordedRelease(
        name: name, recordedOn: "2026-11-28", tool: "petspot-contracts 1.0.0", contractVersion: contractVersion, seed: 42,
        protocolVersion: 2,
        flows: [FlowSummary(flow: .missing, asked: 10, submitted: 6, blocked: 4), FlowSummary(flow: .found, asked: 5, unavailable: 5)],
        reports: [
            RecordedReport(flow: .missing, clock: clock, payload: payload, contract: RecordedAnswer(status: 201)),
            RecordedReport(
                flow: .missing, clock: clock, payload: refused,
                contract: RecordedAnswer(status: 400, code: "INVALID_FORMAT", field: "age")),
        ],
        submissions: [
            RecordedSubmission(flow: .missing, clock: clock, requests: [
                RecordedRequest(method: "POST", path: RecordedRequest.createPath, body: .json(.object(payload)), contract: RecordedAnswer(status: 201)),
                RecordedRequest(
                    method: "POST", path: RecordedRequest.uploadPath, authorization: "Basic {id}:{managementPassword}",
                    body: .multipart([RecordedPart(name: "photo", fileName: "rex.jpg", contentType: "image/jpeg", byteCount: 2048, kind: "jpeg")]),
                    contract: RecordedAnswer(status: 201)),
            ])
        ])
}

@Suite("Release files")
struct ReleaseFileTests {
    @Test("a release file reads back as the release it was written from, and writes the same bytes again")
    func roundTrip() throws {
        let release = sampleRelease()
        let bytes = release.fileBytes()
        let read = try RecordedRelease.decode(bytes, file: "1.4.json")
        #expect(read == release)
        #expect(read.fileBytes() == bytes)
        #expect(read.unavailableFlows == [.found])
        #expect(read.requestCount == 4)
    }

    @Test("one report per line, so that a re-recording reviews as a diff of reports")
    func layout() {
        let text = String(decoding: sampleRelease().fileBytes(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "{")
        #expect(lines.contains { $0.hasPrefix("    {\"flow\":\"missing\",\"clock\":\"2026-11-21T12:00:00Z\",\"contract\":{\"status\":201}") })
        #expect(lines.dropLast().last?.hasPrefix("  \"checksum\": \"sha256:") == true)
    }

    @Test("reindenting keeps the file valid; changing a value is a hand edit, named")
    func handEdits() throws {
        let text = String(decoding: sampleRelease().fileBytes(), as: UTF8.self)
        let reindented = text.replacingOccurrences(of: "\n    {", with: "\n\t\t{")
        #expect(throws: Never.self) { try RecordedRelease.decode(Array(reindented.utf8), file: "r.json") }
        let edited = text.replacingOccurrences(of: "\"seed\": 42", with: "\"seed\": 43")
        let error = try #require(throws: ReleaseFileError.self) { try RecordedRelease.decode(Array(edited.utf8), file: "releases/r.json") }
        #expect(error.description.hasPrefix("releases/r.json: checksum: does not match the file's contents: the file was edited"))
    }

    @Test("corrupt JSON is named by its byte offset")
    func corrupt() throws {
        var bytes = sampleRelease().fileBytes()
        let colon = try #require(bytes.firstIndex(of: UInt8(ascii: ":")))
        bytes[colon] = UInt8(ascii: "}")
        let error = try #require(throws: ReleaseFileError.self) { try RecordedRelease.decode(bytes, file: "r.json") }
        #expect(error.location == "byte \(colon)")
        #expect(error.description.contains("not JSON"))
    }

    @Test("a newer format version, another format, an unknown or mistyped key: one line naming the key")
    func shapeErrors() throws {
        func error(_ edit: (inout [(key: String, value: JSONValue)]) -> Void) throws -> ReleaseFileError {
            var members = sampleRelease().jsonMembers()
            edit(&members)
            members.append(("checksum", .string(RecordedRelease.checksum(of: members))))
            let bytes = JSONValue.object(JSONObject(members)).serializedBytes()
            return try #require(throws: ReleaseFileError.self) { try RecordedRelease.decode(bytes, file: "r.json") }
        }
        let newer = try error { $0[1].value = 2 }
        #expect(newer.description == "r.json: formatVersion: format version 2 is newer than this tool reads (1): update petspot-contracts")
        let other = try error { $0[0].value = "pact" }
        #expect(other.location == "format")
        let unknown = try error { $0.append(("notes", "hello")) }
        #expect(unknown.description == "r.json: notes: not a key of the release format")
        let mistyped = try error { members in
            guard case .array(var reports) = members[10].value, case .object(var first) = reports[0], case .object(var contract) = first["contract"]! else { return }
            contract["status"] = "201"
            first["contract"] = .object(contract)
            reports[0] = .object(first)
            members[10].value = .array(reports)
        }
        #expect(mistyped.description == "r.json: reports[0].contract.status: expected an integer, found \"201\"")
        let flow = try error { members in
            guard case .array(var flows) = members[9].value, case .object(var first) = flows[0] else { return }
            first["flow"] = "lost"
            flows[0] = .object(first)
            members[9].value = .array(flows)
        }
        #expect(flow.description == "r.json: flows[0].flow: expected \"missing\" or \"found\", found \"lost\"")
    }

    @Test("a file over 1 MB is refused before it is parsed")
    func tooLarge() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: RecordedRelease.maxFileBytes + 1).write(to: file)
        let error = try #require(throws: ReleaseFileError.self) { try RecordedRelease.read(from: file, displayPath: "big.json") }
        #expect(error.description.contains("over the 1048576 a release file may have"))
    }
}

@Suite("Release directories")
struct ReleaseDirectoryTests {
    @Test("a missing or empty directory is an error, never an empty pass")
    func nothingToCheck() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try #require(throws: ReleaseFileError.self) {
            try ReleaseDirectory.load(directory.appendingPathComponent("none"), displayPath: "releases")
        }
        #expect(missing.description.hasPrefix("releases: no such directory"))
        try "notes".write(to: directory.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let empty = try #require(throws: ReleaseFileError.self) { try ReleaseDirectory.load(directory, displayPath: "releases") }
        #expect(empty.description == "releases: holds no release file (*.json): nothing to check is not a pass")
    }

    @Test("releases load sorted by version; one file per release; another contract version is named")
    func loading() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["1.10", "1.4", "1.0"] {
            try Data(sampleRelease(name: name).fileBytes()).write(to: directory.appendingPathComponent(ReleaseDirectory.fileName(for: name)))
        }
        #expect(try ReleaseDirectory.load(directory, displayPath: "r").map(\.name) == ["1.0", "1.4", "1.10"])

        try Data(sampleRelease(name: "1.4").fileBytes()).write(to: directory.appendingPathComponent("copy.json"))
        let twice = try #require(throws: ReleaseFileError.self) { try ReleaseDirectory.load(directory, displayPath: "r") }
        #expect(twice.description == "r/copy.json: release: release \"1.4\" is also recorded in r/1.4.json: keep one file per release")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("copy.json"))

        var old = sampleRelease(name: "0.9", contractVersion: "v0")
        try Data(old.fileBytes()).write(to: directory.appendingPathComponent("0.9.json"))
        let version = try #require(throws: ReleaseFileError.self) { try ReleaseDirectory.load(directory, displayPath: "r") }
        #expect(version.description.hasPrefix("r/0.9.json: contractVersion: recorded against contract v0, this tool checks contract v1"))
        old.supportEnded = "2026-11-01"
        try Data(old.fileBytes()).write(to: directory.appendingPathComponent("0.9.json"))
        #expect(try ReleaseDirectory.load(directory, displayPath: "r").count == 4)
    }

    @Test("file names keep what is safe in a path")
    func fileNames() {
        #expect(ReleaseDirectory.fileName(for: "2.0") == "2.0.json")
        #expect(ReleaseDirectory.fileName(for: "2026.11 (build 412)/x") == "2026.11__build_412__x.json")
    }
}

/// A fresh temporary directory (the caller removes it).
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-releases-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
