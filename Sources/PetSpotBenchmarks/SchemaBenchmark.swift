import Dispatch
import PetSpotJSON
import PetSpotSchema

/// Measures how many validations per second a compiled schema sustains on one instance.
///
/// The schema is compiled once, outside the timed loop; the loop calls
/// ``CompiledSchema/validity(of:)`` in batches of 1,000 and reads the clock between batches, so
/// clock reads do not dominate. Run it from a release build: debug builds are 10-50× slower.
///
/// ```swift
/// let perSecond = try SchemaBenchmark.validationsPerSecond(schema: schema, instance: payload, seconds: 2)
/// ```
public enum SchemaBenchmark {
    /// The outcome of one timed run.
    public struct Measurement: Sendable, Hashable {
        /// Validations performed.
        public let validations: Int
        /// Wall-clock time they took, in seconds.
        public let seconds: Double
        /// Whether every validation said "valid" (a benchmark of a rejected or undecided payload is
        /// usually a mistake).
        public let instanceIsValid: Bool

        /// Validations per second.
        public var perSecond: Double { seconds > 0 ? Double(validations) / seconds : 0 }
    }

    /// Validations per second of `instance` against `schema`, compiled once.
    /// - Parameters:
    ///   - schema: The schema document.
    ///   - instance: The instance validated repeatedly.
    ///   - seconds: How long to run (at least one batch of 1,000 runs regardless).
    ///   - registry: Documents for references outside `schema`.
    ///   - options: Compile options.
    /// - Returns: Validations per second.
    /// - Throws: ``SchemaCompileError`` when `schema` does not compile.
    public static func validationsPerSecond(
        schema: JSONValue, instance: JSONValue, seconds: Double,
        registry: SchemaRegistry = SchemaRegistry(), options: SchemaOptions = SchemaOptions()
    ) throws(SchemaCompileError) -> Double {
        try measure(schema: schema, instance: instance, seconds: seconds, registry: registry, options: options).perSecond
    }

    /// Runs the timed loop and returns the full measurement.
    /// - Throws: ``SchemaCompileError`` when `schema` does not compile.
    public static func measure(
        schema: JSONValue, instance: JSONValue, seconds: Double,
        registry: SchemaRegistry = SchemaRegistry(), options: SchemaOptions = SchemaOptions()
    ) throws(SchemaCompileError) -> Measurement {
        let compiled = try JSONSchema.compile(schema, registry: registry, options: options)
        return measure(compiled, instance: instance, seconds: seconds)
    }

    /// Runs the timed loop on an already compiled schema.
    public static func measure(_ compiled: CompiledSchema, instance: JSONValue, seconds: Double) -> Measurement {
        let batch = 1_000
        // Warm-up: caches, lazy statics.
        for _ in 0..<100 { _ = compiled.validity(of: instance) }
        var validations = 0
        var validCount = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed: UInt64 = 0
        let budget = UInt64(max(0, seconds) * 1_000_000_000)
        repeat {
            for _ in 0..<batch where compiled.validity(of: instance) == .valid { validCount += 1 }
            validations += batch
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while elapsed < budget
        return Measurement(validations: validations, seconds: Double(elapsed) / 1_000_000_000, instanceIsValid: validCount == validations)
    }
}
