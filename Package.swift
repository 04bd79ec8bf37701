// swift-tools-version: 6.0
// PetSpot Contracts: conformance and contract tests for the PetSpot report flows.
// No package dependencies: only the toolchain's Foundation, XCTest and Swift Testing.
//
// The layers (CONTRIBUTING.md has the full map):
//   PetSpotJSON, PetSpotConcurrency                     foundations, no dependencies
//   PetSpotModel                                        the reference model: flows, rules, payload
//   PetSpotPropertyEngine (+ PetSpotPropertyTesting)    the property-based testing engine
//   PetSpotFlowGenerators                               random flow inputs, from the model's field table
//   PetSpotSchema, PetSpotContractKit                   JSON Schema validator; the captured contract
//   PetSpotHTTP, PetSpotMockBackend                     HTTP on sockets; the mock (independent of the model)
//   PetSpotMockTransport                                the model's submitter straight into the mock
//   PetSpotReport                                       the contract report and its renderings, redaction
//   PetSpotRunner                                       the contract groups, adapter driving, submission under faults
//   PetSpotOpenAPI                                      the captured contract as an OpenAPI 3.1 document
//   PetSpotCLI -> petspot-contracts                     the command line: options, commands, exit codes
// Benchmarks, the Bowtie harness and test support are targets, not products.
import PackageDescription

let package = Package(
    name: "PetSpotContracts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PetSpotJSON", targets: ["PetSpotJSON"]),
        .library(name: "PetSpotModel", targets: ["PetSpotModel"]),
        .library(name: "PetSpotPropertyEngine", targets: ["PetSpotPropertyEngine"]),
        .library(name: "PetSpotPropertyTesting", targets: ["PetSpotPropertyTesting"]),
        .library(name: "PetSpotFlowGenerators", targets: ["PetSpotFlowGenerators"]),
        .library(name: "PetSpotSchema", targets: ["PetSpotSchema"]),
        .library(name: "PetSpotContractKit", targets: ["PetSpotContractKit"]),
        .library(name: "PetSpotHTTP", targets: ["PetSpotHTTP"]),
        .library(name: "PetSpotMockBackend", targets: ["PetSpotMockBackend"]),
        .library(name: "PetSpotMockTransport", targets: ["PetSpotMockTransport"]),
        .library(name: "PetSpotReport", targets: ["PetSpotReport"]),
        .library(name: "PetSpotRunner", targets: ["PetSpotRunner"]),
        .library(name: "PetSpotOpenAPI", targets: ["PetSpotOpenAPI"]),
        .library(name: "PetSpotCLI", targets: ["PetSpotCLI"]),
        .executable(name: "petspot-contracts", targets: ["petspot-contracts"]),
        .executable(name: "petspot-example-adapter", targets: ["petspot-example-adapter"]),
    ],
    targets: [
        // JSON value type, parser and serializer shared by every other part.
        .target(name: "PetSpotJSON"),
        // `Locked<Value>`: the one lock type every module shares state through.
        .target(name: "PetSpotConcurrency"),
        // The report flows, their field table and rules, payloads, wire types and submission.
        .target(name: "PetSpotModel", dependencies: ["PetSpotJSON"]),
        // The property-based testing engine: choice sequences and integrated shrinking.
        .target(name: "PetSpotPropertyEngine", dependencies: ["PetSpotConcurrency"], path: "Generators/Engine"),
        // The engine's Swift Testing and XCTest integration (failures at the caller's line).
        .target(name: "PetSpotPropertyTesting", dependencies: ["PetSpotPropertyEngine"], path: "Generators/Testing"),
        // Raw user input and wizard action generators for both report flows.
        .target(
            name: "PetSpotFlowGenerators",
            dependencies: ["PetSpotPropertyEngine", "PetSpotModel", "PetSpotJSON", "PetSpotConcurrency"],
            path: "Generators/Flows"
        ),
        // JSON Schema draft 2020-12 validator.
        .target(name: "PetSpotSchema", dependencies: ["PetSpotJSON"]),
        // The captured contract: schemas and negative-case catalogs in Contracts/, and their loader.
        .target(
            name: "PetSpotContractKit",
            dependencies: ["PetSpotJSON"],
            path: "Contracts",
            exclude: ["README.md"],
            sources: ["Kit"],
            resources: [.copy("schemas"), .copy("catalog")]
        ),
        // HTTP/1.1 on POSIX sockets: message types, parser, server and a raw client.
        .target(name: "PetSpotHTTP", dependencies: ["PetSpotConcurrency"]),
        // Strict-schema mock backend: in-process handler and HTTP server on loopback. It does not
        // import the reference model it stands beside: its rules are its own, from backend-contract.md.
        .target(
            name: "PetSpotMockBackend",
            dependencies: ["PetSpotJSON", "PetSpotHTTP", "PetSpotContractKit", "PetSpotConcurrency"]
        ),
        // The model's submission transport straight into the mock, with no sockets.
        .target(name: "PetSpotMockTransport", dependencies: ["PetSpotModel", "PetSpotMockBackend", "PetSpotHTTP"]),
        // The contract report: what was checked and what failed, its console, JSON, JUnit, HTML and
        // GitHub renderings, and the redaction of secrets in it.
        .target(name: "PetSpotReport", dependencies: ["PetSpotJSON", "PetSpotModel", "PetSpotConcurrency"]),
        // The contract runner: the contract groups and their registry, the backend's request ritual,
        // adapter driving, the submission under faults, the HTTP clients; output and signals.
        .target(
            name: "PetSpotRunner",
            dependencies: [
                "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine", "PetSpotFlowGenerators", "PetSpotSchema",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // Releases in the field: the release file, what a backend's rules tell apart, the Pact export.
        .target(
            name: "PetSpotReleases",
            dependencies: ["PetSpotJSON", "PetSpotModel", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotConcurrency"]
        ),
        // The captured contract as an OpenAPI 3.1 document; its examples are the runner's own requests.
        .target(
            name: "PetSpotOpenAPI",
            dependencies: [
                "PetSpotRunner", "PetSpotJSON", "PetSpotModel", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport",
                "PetSpotHTTP",
            ]
        ),
        // The command line: each option declared once, the commands check, run, mock and openapi,
        // the exit codes; benchmarks and Bowtie plug in their commands.
        .target(
            name: "PetSpotCLI",
            dependencies: [
                "PetSpotRunner", "PetSpotOpenAPI", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine",
                "PetSpotFlowGenerators", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotHTTP",
                "PetSpotConcurrency",
            ]
        ),
        // The shipped benchmarks behind `petspot-contracts bench`.
        .target(
            name: "PetSpotBenchmarks",
            dependencies: [
                "PetSpotCLI", "PetSpotRunner", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine",
                "PetSpotFlowGenerators", "PetSpotSchema", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // Bowtie's JSON Schema harness protocol behind `petspot-contracts bowtie`.
        .target(name: "PetSpotBowtie", dependencies: ["PetSpotSchema", "PetSpotJSON", "PetSpotCLI", "PetSpotRunner"]),
        .executableTarget(name: "petspot-contracts", dependencies: ["PetSpotCLI", "PetSpotBenchmarks", "PetSpotBowtie"]),
        // An adapter (sut-protocol.md) with its own implementation of the report flows (not the
        // reference model's), and switches that plant app defects in it.
        .executableTarget(name: "petspot-example-adapter", dependencies: ["PetSpotJSON"]),

        // Test support: machines with planted bugs and generator laws; hostile HTTP bytes.
        .target(
            name: "PetSpotPropertyEngineTestSupport", dependencies: ["PetSpotPropertyEngine"],
            path: "Tests/PetSpotPropertyEngineTestSupport"
        ),
        .target(name: "PetSpotHTTPTestSupport", dependencies: ["PetSpotPropertyEngine"], path: "Tests/PetSpotHTTPTestSupport"),
        // A filter around an adapter: respells the numbers of its answers in every valid JSON form
        // (`1E+1`, trailing zeros, `-0`), or plants a trimming helper that keeps U+FEFF.
        .executableTarget(name: "petspot-adapter-filter", dependencies: ["PetSpotJSON", "PetSpotPropertyEngine"], path: "Tests/PetSpotAdapterFilter"),

        .testTarget(
            name: "PetSpotConformanceTests",
            dependencies: [
                "PetSpotModel", "PetSpotJSON", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotHTTP", "PetSpotSchema",
                "PetSpotRunner", "PetSpotOpenAPI", "PetSpotReport",
            ]
        ),
        .testTarget(name: "PetSpotContractKitTests", dependencies: ["PetSpotContractKit", "PetSpotJSON"]),
        .testTarget(
            name: "PetSpotFlowGeneratorsTests",
            dependencies: ["PetSpotFlowGenerators", "PetSpotPropertyEngine", "PetSpotPropertyEngineTestSupport", "PetSpotModel"]
        ),
        .testTarget(
            name: "PetSpotPropertyEngineTests",
            dependencies: ["PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotPropertyEngineTestSupport", "PetSpotConcurrency"]
        ),
        // The Shrinking Challenge, a handful of seeds per challenge (the benchmark runs a hundred).
        .testTarget(name: "PetSpotPropertyEngineChallengeTests", dependencies: ["PetSpotBenchmarks", "PetSpotPropertyEngine"]),
        .testTarget(
            name: "PetSpotPropertyEngineXCTests",
            dependencies: ["PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotPropertyEngineTestSupport"]
        ),
        // Depends on the executable so that its process tests (signals, descriptor exhaustion)
        // find `petspot-contracts` built beside the test bundle.
        .testTarget(
            name: "PetSpotHTTPTests",
            dependencies: [
                "PetSpotHTTP", "PetSpotHTTPTestSupport", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotConcurrency",
                "petspot-contracts",
            ]
        ),
        .testTarget(name: "PetSpotJSONTests", dependencies: ["PetSpotJSON"]),
        .testTarget(name: "PetSpotConcurrencyTests", dependencies: ["PetSpotConcurrency"]),
        .testTarget(
            name: "PetSpotMockBackendTests",
            dependencies: [
                "PetSpotMockBackend", "PetSpotHTTP", "PetSpotHTTPTestSupport", "PetSpotJSON", "PetSpotContractKit",
                "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotConcurrency",
            ]
        ),
        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON", "PetSpotConcurrency"]),
        .testTarget(
            name: "PetSpotRunnerTests",
            dependencies: [
                "PetSpotRunner", "PetSpotCLI", "PetSpotOpenAPI", "PetSpotReport", "PetSpotModel", "PetSpotJSON", "PetSpotMockBackend",
                "PetSpotMockTransport",
                "PetSpotContractKit", "PetSpotFlowGenerators", "PetSpotHTTP", "PetSpotHTTPTestSupport", "PetSpotConcurrency",
                "PetSpotSchema", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "petspot-example-adapter", "petspot-contracts", "petspot-adapter-filter",
            ],
            // The golden files of GoldenCLITests, read by path (and rewritten with PETSPOT_UPDATE_GOLDEN=1).
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "PetSpotSchemaTests",
            dependencies: ["PetSpotSchema", "PetSpotJSON", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotBowtie"]
        ),
        .testTarget(name: "PetSpotReleasesTests", dependencies: ["PetSpotReleases", "PetSpotJSON", "PetSpotModel", "PetSpotContractKit"]),
        .testTarget(name: "PetSpotBenchmarksTests", dependencies: ["PetSpotBenchmarks", "PetSpotCLI", "PetSpotRunner"]),
    ],
    swiftLanguageModes: [.v6]
)
