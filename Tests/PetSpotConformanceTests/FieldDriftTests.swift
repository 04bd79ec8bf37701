import Foundation
import PetSpotJSON
import PetSpotModel
import Testing

/// The field table (`Sources/PetSpotModel/FieldTable.swift`) is the one source of field facts.
/// What cannot be derived from it (the captured schemas, the mock's own rules, the independent
/// adapters) is checked against it here, each mismatch naming the file and the value, and
/// CONTRIBUTING.md's list of the files a new field changes by hand is checked against the files
/// that really list every field.
@Suite("field drift")
struct FieldDriftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func json(_ path: String) throws -> JSONValue { try JSONValue.parse(text(path)) }

    /// The payload's keys and the protocol's input names, from the table.
    static let payloadKeys = FieldTable.payloadKeys
    static let inputNames = ReportField.allCases.map(\.name)

    /// The backticked paths of CONTRIBUTING.md's list between `<!-- field-files: NAME -->` and the
    /// next blank line.
    static func checklist(_ name: String) throws -> [String] {
        let lines = try text("CONTRIBUTING.md").components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "<!-- field-files: \(name) -->") else { return [] }
        var paths: [String] = []
        for line in lines[(start + 1)...] {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            if line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") {
                paths.append(String(line[line.index(line.startIndex, offsetBy: 3)..<end]))
            }
        }
        return paths
    }

    /// Whether `text` names `key` as a quoted string or a declared member.
    static func names(_ key: String, in text: String) -> Bool {
        text.contains("\"\(key)\"") || text.contains("'\(key)'") || text.contains("var \(key):") || text.contains("let \(key):")
    }

    /// Every file of the package's sources, contracts, scripts and docs (not the tests).
    static func packageFiles() -> [String] {
        var files: [String] = []
        for directory in ["Sources", "Generators", "Contracts", "scripts", "docs"] {
            guard let walker = FileManager.default.enumerator(at: root.appendingPathComponent(directory), includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["swift", "json", "py", "md", "sh"].contains(url.pathExtension) {
                files.append(String(url.path.dropFirst(root.path.count + 1)))
            }
        }
        return files.sorted()
    }

    @Test("CONTRIBUTING.md lists every file that names every payload key, and each file it lists names every key")
    func checklistMatchesReality() throws {
        let mustChange = try Self.checklist("must change")
        let exempt = try Self.checklist("name every field, need not change")
        #expect(mustChange.count >= 10, "CONTRIBUTING.md's list of files a new field changes is missing or short: \(mustChange)")
        for path in mustChange + exempt {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "CONTRIBUTING.md lists \(path), which does not exist")
        }
        for path in mustChange {
            let text = try Self.text(path)
            let keys = path.contains("adapter") ? Self.payloadKeys + Self.inputNames : Self.payloadKeys
            for key in keys where !Self.names(key, in: text) {
                Issue.record("\(path) does not name the field \"\(key)\" of the field table (CONTRIBUTING.md: files a new field changes by hand)")
            }
        }
        for path in Self.packageFiles() where !mustChange.contains(path) && !exempt.contains(path) {
            let text = try Self.text(path)
            if Self.payloadKeys.allSatisfy({ Self.names($0, in: text) }) {
                Issue.record("\(path) names every payload key but is not in CONTRIBUTING.md's list of files a new field changes (or of those that need not)")
            }
        }
    }

    /// The object of the app's own rules in client-payload.schema.json (its second `allOf` item).
    static func clientRules() throws -> JSONObject {
        let schema = try json("Contracts/schemas/client-payload.schema.json")
        return try #require(schema["allOf"]?[1]?.objectValue, "client-payload.schema.json has no second allOf item")
    }

    @Test("the captured schemas carry every payload field, with the field table's rule values")
    func schemasMatchTheTable() throws {
        let file = "Contracts/schemas/client-payload.schema.json"
        let rules = try Self.clientRules()
        let properties = try #require(rules["properties"]?.objectValue)
        let backend = try #require(try Self.json("Contracts/schemas/create-request.schema.json")["properties"]?.objectValue)
        let expectedKeys = Set(Self.payloadKeys)
        #expect(Set(backend.keys) == expectedKeys, "create-request.schema.json properties \(backend.keys.sorted()) differ from the table's payload keys \(expectedKeys.sorted())")
        // Keys the app must never send are `false` there; the others are the payload's.
        let allowed = properties.members.filter { $0.value != .bool(false) }.map(\.key)
        #expect(Set(allowed) == expectedKeys, "\(file) properties \(allowed.sorted()) differ from the table's payload keys \(expectedKeys.sorted())")
        func check(_ key: String, _ member: String, _ expected: JSONValue?) {
            let actual = properties[key]?[member]
            #expect(actual == expected, "\(file): \(key).\(member) is \(actual?.serialized() ?? "absent"), the field table says \(expected?.serialized() ?? "absent")")
        }
        for spec in FieldTable.specs {
            guard let key = spec.payloadKey else { continue }
            switch spec.kind {
            case .digits(let formatter): check(key, "pattern", .string("^[0-9]{1,\(formatter.maxDigits)}$"))
            case .freeText(let limit):
                check(key, "x-maxCharacters", limit.map { .number(JSONNumber($0.maxCharacters)) })
            case .phone(let rule): check(key, "pattern", .string("^\\+*([0-9]\\+*){\(rule.digitCount.lowerBound),\(rule.digitCount.upperBound)}$"))
            case .email(let rule):
                check(key, "maxLength", .number(JSONNumber(rule.maxLength)))
                check(key, "pattern", .string("^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{\(rule.minTopLevelLetters),}$"))
            case .coordinate(let axis):
                check(key, "minimum", .number(JSONNumber(-axis.limit)))
                check(key, "maximum", .number(JSONNumber(axis.limit)))
            case .wholeNumber(let rule):
                check(key, "minimum", .number(JSONNumber(rule.range.lowerBound)))
                check(key, "maximum", .number(JSONNumber(rule.range.upperBound)))
            case .choice(let options): check(key, "enum", .array(options.map { .string($0) }))
            case .date: check(key, "pattern", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
            case .photo: Issue.record("the photo has a payload key \(key) in the field table")
            }
        }
        // The app requires what the backend does not: together they are the table's required fields.
        let backendRequired = Set(try Self.json("Contracts/schemas/create-request.schema.json")["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let appRequired = Set(rules["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let tableRequired = Set(FieldTable.specs.filter { $0.presence == .required }.compactMap(\.payloadKey) + [FieldTable.statusKey])
        #expect(backendRequired.union(appRequired) == tableRequired, "\(file) and create-request.schema.json require \(backendRequired.union(appRequired).sorted()), the field table \(tableRequired.sorted())")
        // The Found flow leaves out the Missing-only fields.
        let foundExcluded = Set(rules["then"]?["properties"]?.objectValue?.keys ?? [])
        let missingOnly = Set(FieldTable.specs.filter { $0.placement.found == nil }.compactMap(\.payloadKey))
        #expect(foundExcluded == missingOnly, "\(file): the Found flow excludes \(foundExcluded.sorted()), the field table's Missing-only fields are \(missingOnly.sorted())")
    }

    @Test("the mock's create rules cover every payload field, and the adapters read every input")
    func mockAndAdaptersMatchTheTable() throws {
        let rules = try Self.text("Sources/PetSpotMockBackend/CreateRequestRules.swift")
        for key in Self.payloadKeys where !rules.contains("name: \"\(key)\"") {
            Issue.record("Sources/PetSpotMockBackend/CreateRequestRules.swift has no rule for the payload key \"\(key)\"")
        }
        for path in ["Sources/petspot-example-adapter/FlowApp.swift", "scripts/python_adapter.py"] {
            let text = try Self.text(path)
            for name in Self.inputNames where !Self.names(name, in: text) {
                Issue.record("\(path) does not read the input \"\(name)\" of the field table")
            }
        }
    }
}
