import Foundation
import PetSpotJSON
@testable import PetSpotSchema
import Testing

/// "Adding a keyword touches one file (plus its test)": each keyword is one type conforming to
/// `SchemaKeyword` in its own file under `Sources/PetSpotSchema/Keywords/`, and the draft's
/// table (`Draft202012.keywords`) lists every such type exactly once. A keyword type left out
/// of the table would never run; a name listed twice would hide one of its types.
@Suite("Keyword table")
struct KeywordTableTests {
    static let keywordsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PetSpotSchema")

    /// Every type declared as conforming to `SchemaKeyword` in the module's sources, with its file.
    static func declaredKeywordTypes() throws -> [(type: String, file: String)] {
        let declaration = try Regex(#"(?m)^\s*(?:struct|final class|class|enum)\s+(\w+)\s*:[^{]*\bSchemaKeyword\b"#)
        var result: [(String, String)] = []
        let walker = FileManager.default.enumerator(at: keywordsFolder, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let relative = String(url.path.dropFirst(keywordsFolder.path.count + 1))
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { result.append((String(name), relative)) }
            }
        }
        return result
    }

    static var tableTypeNames: [String] { Draft202012.keywords.map { String(describing: $0) } }

    @Test("every keyword type in the sources is in the draft's table, and the table has no other")
    func everyKeywordTypeIsInTheTable() throws {
        let declared = try Self.declaredKeywordTypes()
        #expect(declared.count >= 30, "only \(declared.count) keyword types found under \(Self.keywordsFolder.path)")
        let missing = declared.filter { !Self.tableTypeNames.contains($0.type) }
        #expect(missing.isEmpty, "keyword types missing from Draft202012.keywords: \(missing.map { "\($0.type) (\($0.file))" })")
        let unknown = Self.tableTypeNames.filter { name in !declared.contains { $0.type == name } }
        #expect(unknown.isEmpty, "table entries declared nowhere under Sources/PetSpotSchema: \(unknown)")
    }

    @Test("the table lists each keyword type once and each keyword name once")
    func noKeywordTwice() {
        let types = Self.tableTypeNames
        #expect(Set(types).count == types.count, "types listed twice: \(Self.repeated(types))")
        let names = Draft202012.keywords.flatMap { $0.names }
        #expect(Set(names).count == names.count, "keyword names listed twice: \(Self.repeated(names))")
        for type in Draft202012.keywords {
            #expect(type.names.contains(type.name), "\(type): names must include name")
        }
    }

    @Test("one keyword type per file in Keywords/, the file named after it, overriding isValid")
    func oneKeywordPerFile() throws {
        let declared = try Self.declaredKeywordTypes()
        for (type, file) in declared {
            #expect(file == "Keywords/\(type).swift", "\(type) is declared in \(file)")
            // Without its override, the base class's isValid would stop the fast path.
            let text = try String(contentsOf: Self.keywordsFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("override func isValid("), "\(type) does not override isValid")
        }
    }

    /// Keywords are `@unchecked Sendable` (their base class, `CompiledKeyword`, cannot be checked):
    /// this is the check in its place. A keyword holds `let`s only; a `var` member would be
    /// state shared by every thread validating with the schema.
    @Test("keywords hold no mutable state: no var member in Keywords/")
    func keywordsHoldNoVar() throws {
        let member = try Regex(#"(?m)^    (?:(?:private|fileprivate|internal|package|public|static|class|lazy|nonisolated|weak|unowned)(?:\([^)]*\))?\s+)*var\s+(\w+)"#)
        var offending: [String] = []
        let folder = Self.keywordsFolder.appendingPathComponent("Keywords")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: member) {
                // Computed properties (`var x: T {`) hold nothing.
                let line = text[match.range.lowerBound...].prefix { $0 != "\n" }
                if line.hasSuffix("{") { continue }
                offending.append("\(name): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offending.isEmpty, "stored var in a keyword: \(offending)")
    }

    /// Draft 2020-12 keywords that no table entry compiles by name: read by another keyword
    /// (`then`/`else` by `if`, `minContains`/`maxContains` by `contains`), or annotations and
    /// identifiers that assert nothing.
    static let readElsewhereOrAnnotations: Set<String> = [
        "then", "else", "minContains", "maxContains",
        "$id", "$schema", "$anchor", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
        "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
        "contentEncoding", "contentMediaType", "contentSchema",
    ]

    @Test("the table's names are the draft's keywords, and every asserting keyword of the draft is in it")
    func tableMatchesTheVocabularies() throws {
        var draftKeywords: Set<String> = []
        for document in Metaschemas.documents where document.uri.contains("/meta/") {
            let metaschema = try JSONValue.parse(Data(document.text.utf8))
            for key in metaschema["properties"]?.objectValue?.keys ?? [] { draftKeywords.insert(key) }
        }
        #expect(draftKeywords.count > 50, "only \(draftKeywords.count) keywords read from the meta-schemas")
        let names = Set(Draft202012.keywords.flatMap { $0.names })
        #expect(names.subtracting(draftKeywords).isEmpty, "not draft 2020-12 keywords: \(names.subtracting(draftKeywords).sorted())")
        let uncovered = draftKeywords.subtracting(names).subtracting(Self.readElsewhereOrAnnotations)
        #expect(uncovered.isEmpty, "draft 2020-12 keywords that nothing compiles: \(uncovered.sorted())")
    }

    static func repeated(_ items: [String]) -> [String] {
        var seen: Set<String> = []
        return items.filter { !seen.insert($0).inserted }
    }
}
