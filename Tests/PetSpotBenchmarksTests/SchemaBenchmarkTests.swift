import PetSpotBenchmarks
import PetSpotJSON
import Testing

@Suite("Schema benchmark")
struct SchemaBenchmarkTests {
    static let person: JSONValue = [
        "type": "object",
        "properties": ["name": ["type": "string", "minLength": 2], "age": ["type": "integer", "minimum": 1]],
        "required": ["name", "age"],
        "additionalProperties": false,
    ]

    @Test func measuresTheValidSchemaAndSaysWhenTheInstanceIsRejected() throws {
        let measurement = try SchemaBenchmark.measure(schema: Self.person, instance: ["name": "Rex", "age": 3], seconds: 0.01)
        #expect(measurement.validations >= 1_000)
        #expect(measurement.instanceIsValid)
        #expect(measurement.perSecond > 0)
        let invalid = try SchemaBenchmark.measure(schema: Self.person, instance: ["name": "Rex"], seconds: 0)
        #expect(!invalid.instanceIsValid)
    }
}
