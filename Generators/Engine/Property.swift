import Foundation

/// A named property: a generator, a body that checks one value, and coverage requirements.
///
/// Checking a property runs the body on values drawn from the generator (a growing size
/// parameter, one split of the seed per case). The body fails a case by returning `false`
/// or throwing any error (its description becomes the message); ``assume(_:_:)`` discards a
/// case. The first failure is shrunk on its choice sequence to a minimal counterexample.
///
/// ```swift
/// let result = Property("sums stay small", Gen.int(in: 0...100).array()) { values in
///     classify(values.isEmpty, "empty")
///     return values.reduce(0, +) < 1000
/// }
/// .requireCoverage("empty", atLeast: 1)
/// .check()
/// ```
///
/// Checking is synchronous and deterministic for a given seed and configuration; every
/// figure it reports is in the returned ``PropertyResult``. Another thread can end a check
/// early through ``PropertyConfiguration/stopSignal``.
public struct Property<Value> {
    /// The name, shown in reports and used in the replay line's `--filter`.
    public let name: String
    /// The generator of inputs.
    public let gen: Gen<Value>
    /// Labels that must each cover a minimum share of cases.
    public private(set) var coverage: [CoverageRequirement] = []
    /// What tells this property's failure-database entry apart from other properties with the
    /// same name: a test's identity and its arguments (see ``identified(by:)``); `nil` by default.
    public private(set) var identity: String?
    private let body: (Value) throws -> Bool

    /// Creates a property whose body returns whether the value satisfies it.
    public init(_ name: String, _ gen: Gen<Value>, _ body: @escaping (Value) throws -> Bool) {
        self.name = name
        self.gen = gen
        self.body = body
    }

    /// Creates a property whose body throws when the value does not satisfy it.
    public init(_ name: String, _ gen: Gen<Value>, verifying body: @escaping (Value) throws -> Void) {
        self.init(name, gen) { value in
            try body(value)
            return true
        }
    }

    /// Returns this property with a requirement that at least `percent` percent of passing cases carry `label`.
    ///
    /// The requirement is judged statistically, running more cases when the evidence is not yet
    /// conclusive (see the engine documentation on coverage): a run fails only when the label is
    /// rarer than asked with confidence, or still rarer after ten times the requested cases.
    public func requireCoverage(_ label: String, atLeast percent: Double) -> Property {
        var copy = self
        copy.coverage.append(CoverageRequirement(label, atLeast: percent))
        return copy
    }

    /// Returns this property with `identity` added to the key of its failure-database entry.
    ///
    /// The failure database (``PropertyConfiguration/failureDirectory``) keeps one entry per
    /// key: the property's name, plus this identity when there is one. Give every check that
    /// shares a name its own identity, or they overwrite each other's saved failure: the cases
    /// of a parameterized test (identify them by the test and its arguments, for example
    /// `"MyTests/dates(zone:) | Asia/Tokyo"`), or one property checked against several systems.
    /// The test-framework helpers of PetSpotPropertyTesting set it from the running test.
    public func identified(by identity: String?) -> Property {
        var copy = self
        copy.identity = identity
        return copy
    }

    /// Runs the property and returns the outcome.
    ///
    /// - Parameters:
    ///   - configuration: Cases, seed, sizes and shrink budgets.
    ///   - environment: The variables to read when the configuration reads the environment;
    ///     the process environment by default.
    public func check(
        _ configuration: PropertyConfiguration = PropertyConfiguration(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PropertyResult<Value> {
        PropertyRunner(property: self, body: body, configuration: configuration, environment: environment).run()
    }
}

/// Checks a property whose body returns whether the value satisfies it.
///
/// Shorthand for `Property(name, gen, body).check(configuration)` with coverage requirements.
@discardableResult
public func check<Value>(
    _ name: String, _ gen: Gen<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], _ body: @escaping (Value) throws -> Bool
) -> PropertyResult<Value> {
    var property = Property(name, gen, body)
    for requirement in coverage {
        property = property.requireCoverage(requirement.label, atLeast: requirement.minimumPercent)
    }
    return property.check(configuration)
}

/// Checks a property whose body throws when the value does not satisfy it.
@discardableResult
public func check<Value>(
    _ name: String, _ gen: Gen<Value>, configuration: PropertyConfiguration = PropertyConfiguration(),
    coverage: [CoverageRequirement] = [], verifying body: @escaping (Value) throws -> Void
) -> PropertyResult<Value> {
    check(name, gen, configuration: configuration, coverage: coverage) { value in
        try body(value)
        return true
    }
}

