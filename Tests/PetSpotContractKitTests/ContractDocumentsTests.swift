import Foundation
import PetSpotJSON
import Testing
@testable import PetSpotContractKit

@Suite("ContractDocuments")
struct ContractDocumentsTests {
    @Test("bundled resources load through Bundle.module")
    func bundledResourcesLoad() throws {
        let contract = try ContractDocuments.bundled()
        #expect(contract.directory.path.contains("PetSpotContractKit.resources"))
        #expect(contract.schemas.count == ContractSchemaName.allCases.count)
        #expect(contract.negativeCases.cases.count > 100)
        #expect(contract.photoUploadCases.cases.count > 10)
        #expect(contract.regressions.version == 1)
    }

    @Test("every schema declares 2020-12 and its stable $id", arguments: ContractSchemaName.allCases)
    func schemaHeaders(name: ContractSchemaName) throws {
        let schema = try bundledContract()[name]
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["$id"]?.stringValue == "https://petspot.example/contracts/v1/\(name.rawValue).schema.json")
        #expect(name.id == schema["$id"]?.stringValue)
        #expect((schema["examples"]?.arrayValue?.count ?? 0) >= 1, "every schema carries valid examples")
    }

    @Test("the bundled files are the repository's files")
    func bundleMatchesRepository() throws {
        let bundled = try ContractDocuments.bundled()
        let repository = try ContractDocuments(directory: repositoryContractsDirectory)
        for name in ContractSchemaName.allCases { #expect(bundled[name] == repository[name], "\(name.fileName)") }
        #expect(bundled.negativeCases == repository.negativeCases)
        #expect(bundled.photoUploadCases == repository.photoUploadCases)
    }

    @Test("the registry maps each $id to its document")
    func registry() throws {
        let contract = try bundledContract()
        #expect(Set(contract.registry.keys) == Set(ContractSchemaName.allCases.map(\.id)))
        #expect(contract.registry[ContractSchemaName.announcement.id] == contract[.announcement])
    }

    @Test("every $ref names a local pointer or a contract $id")
    func referencesResolve() throws {
        let contract = try bundledContract()
        let ids = Set(ContractSchemaName.allCases.map(\.id))
        var remote: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for member in object.members {
                    if member.key == "$ref", let target = member.value.stringValue {
                        if target.hasPrefix("#") { continue }
                        remote.append(target)
                        #expect(ids.contains(target), "unknown $ref \(target)")
                    } else {
                        walk(member.value)
                    }
                }
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        ContractSchemaName.allCases.forEach { walk(contract[$0]) }
        #expect(Set(remote) == [ContractSchemaName.createRequest.id, ContractSchemaName.announcement.id])
        #expect(contract[.clientPayload]["allOf"]?[0]?["$ref"]?.stringValue == ContractSchemaName.createRequest.id)
    }

    @Test("create-response is the announcement plus managementPassword, photoUrl always null")
    func createResponseMatchesAnnouncement() throws {
        let contract = try bundledContract()
        let announcement = try #require(contract[.announcement]["properties"]?.objectValue)
        let response = try #require(contract[.createResponse]["properties"]?.objectValue)
        let stored = announcement.keys.filter { $0 != "managementPassword" }
        #expect(response.keys == stored + ["managementPassword"])
        #expect(announcement["managementPassword"] == .bool(false))
        #expect(response["photoUrl"]?["type"]?.stringValue == "null")
        for schema in [ContractSchemaName.announcement, .createResponse] {
            let required = contract[schema]["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let properties = contract[schema]["properties"]?.objectValue?.keys.filter { $0 != "managementPassword" || schema == .createResponse }
            #expect(required == properties, "\(schema.fileName): every member is required (nulls are explicit)")
        }
    }

    @Test("the create-request schema lists the fields in the documented error order")
    func fieldOrder() throws {
        let properties = try #require(try bundledContract()[.createRequest]["properties"]?.objectValue)
        #expect(properties.keys == [
            "petName", "species", "breed", "sex", "age", "description", "microchipNumber", "locationLatitude",
            "locationLongitude", "email", "phone", "lastSeenDate", "status", "reward",
        ])
    }

    @Test("PETSPOT_CONTRACTS_DIR overrides the bundle")
    func environmentOverride() throws {
        let copy = try scratchContractCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let file = copy.appendingPathComponent("catalog/regressions.json")
        try Data(#"{"version": 1, "cases": [{"id": "kept-one", "addedOn": "2026-12-01", "origin": "petspot-contracts check --seed 1", "kind": "clientPayload", "input": {}, "expected": {"valid": false}}]}"#.utf8).write(to: file)
        let overridden = try ContractDocuments.load(environment: [ContractDocuments.directoryEnvironmentKey: copy.path])
        #expect(overridden.directory.standardizedFileURL == copy.standardizedFileURL)
        #expect(overridden.regressions.cases.map(\.id) == ["kept-one"])
        let bundled = try ContractDocuments.load(environment: [:])
        #expect(bundled.directory == ContractDocuments.bundledDirectory)
        #expect(!bundled.regressions.cases.map(\.id).contains("kept-one"))
    }

    @Test("bad JSON names the file and the byte offset")
    func badJSON() throws {
        let copy = try scratchContractCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        try Data(#"{"$schema": }"#.utf8).write(to: copy.appendingPathComponent("schemas/create-request.schema.json"))
        let error = try #require(throws: ContractLoadError.self) { try ContractDocuments(directory: copy) }
        guard case .invalidJSON(let file, let offset, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(file == "schemas/create-request.schema.json")
        #expect(offset == 12)
        #expect(reason.contains("expected a value"))
        #expect(error.description.hasPrefix("schemas/create-request.schema.json: invalid JSON at byte 12"))
    }

    @Test("a schema with another $id is refused by name")
    func wrongID() throws {
        let copy = try scratchContractCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let url = copy.appendingPathComponent("schemas/health.schema.json")
        var health = try #require(try JSONValue.parse(Data(contentsOf: url)).objectValue)
        health["$id"] = "https://petspot.example/contracts/v2/health.schema.json"
        try JSONValue.object(health).serializedData().write(to: url)
        #expect(throws: ContractLoadError.invalidSchema(file: "schemas/health.schema.json", reason: "\"$id\" must be \"\(ContractSchemaName.health.id)\"")) {
            try ContractDocuments(directory: copy)
        }
    }

    @Test("a catalog error names the file and the key path")
    func catalogErrorPath() throws {
        let copy = try scratchContractCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let url = copy.appendingPathComponent("catalog/create-negative-cases.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let broken = text.replacingOccurrences(of: #""status": 400"#, with: #""status": "400""#)
        try Data(broken.utf8).write(to: url)
        let error = try #require(throws: ContractLoadError.self) { try ContractDocuments(directory: copy) }
        guard case .invalidCatalog(let file, let path, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(file == "catalog/create-negative-cases.json")
        #expect(path.hasSuffix(".expected.status") && path.hasPrefix("$.cases["))
        #expect(reason == "expected an integer, found string")
    }

    @Test("a missing directory is one clear error")
    func missingDirectory() {
        let nowhere = URL(fileURLWithPath: "/nonexistent/petspot-contracts")
        #expect(throws: ContractLoadError.missingDirectory(path: nowhere.path)) {
            try ContractDocuments.load(environment: [ContractDocuments.directoryEnvironmentKey: nowhere.path])
        }
    }

    @Test("character caps come from x-maxCharacters and count Characters")
    func characterLimits() throws {
        let contract = try bundledContract()
        #expect(contract.characterLimits == ["description": 500, "reward": 120])
        let flags = String(repeating: "🇵🇱", count: 500)
        #expect(flags.unicodeScalars.count == 1000)
        var payload = contract.negativeCases.basePayload
        payload["description"] = .string(flags)
        #expect(contract.characterLimitViolations(in: payload).isEmpty)
        payload["description"] = .string(String(repeating: "x", count: 501))
        payload["reward"] = .string(String(repeating: "e\u{301}", count: 121))
        #expect(contract.characterLimitViolations(in: payload) == [
            CharacterLimitViolation(field: "description", maxCharacters: 500, characters: 501),
            CharacterLimitViolation(field: "reward", maxCharacters: 120, characters: 121),
        ])
    }
}
