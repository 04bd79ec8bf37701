// swift-tools-version: 6.0
// PetSpot Contracts: conformance and contract tests for the PetSpot report flows.
// No package dependencies: only the toolchain's Foundation, XCTest and Swift Testing.
//
// The layers (CONTRIBUTING.md has the full map):
//   PetSpotJSON, PetSpotConcurrency                     foundations, no dependencies
//   PetSpotProcess                                      the one way to start a child process: its group, its streams, its end
//   PetSpotModel                                        the reference model: flows, rules, payload
//   PetSpotPropertyEngine (+ PetSpotPropertyTesting)    the property-based testing engine
//   PetSpotFlowGenerators                               random flow inputs, from the model's field table
//   PetSpotRegex                                        ECMA-262 patterns: parser, linear and backtracking matchers
//   PetSpotSchema, PetSpotContractKit                   JSON Schema validator; the captured contract
//   PetSpotHTTP, PetSpotMockBackend                     HTTP on sockets; the mock (independent of the model)
//   PetSpotMockTransport                                the model's submitter straight into the mock
//   PetSpotReport                                       the contract report and its renderings, redaction
//   PetSpotRuntime, PetSpotHTTPClient                   output, exit codes, errors, signals; the runner's HTTP clients
//   PetSpotFlowChecks, PetSpotAdapterDriving            flow answers checked in-process; an app's adapter driven
//   PetSpotContractGroups                               the ritual every contract group shares: session, backend, budget
//   PetSpotBackendGroups, PetSpotSequences,             the fixed backend groups; the stateful group;
//     PetSpotSubmissionFaults                             the app's own submission under network faults
//   PetSpotRunner                                       the groups' registry and loop, the session builder
//   PetSpotOpenAPI                                      the captured contract as an OpenAPI 3.1 document
//   PetSpotCLI -> petspot-contracts                     the command line: options, commands, exit codes
// The runner's public part is reached through the PetSpotRunner product (it re-exports Runtime,
// FlowChecks and AdapterDriving). The planted-defect runs, benchmarks, the Bowtie harness and test
// support are targets, not products.
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
        // Child processes: `posix_spawn` in a process group of their own, their standard streams,
        // non-trapping pipe writes, terminating their groups, and the parent watch of our programs.
        .target(name: "PetSpotProcess", dependencies: ["PetSpotConcurrency"]),
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
        // ECMA-262 regular expressions for `pattern`, `patternProperties` and format `regex`: the
        // parser, a linear-time matcher and a backtracking one for backreferences and lookarounds.
        .target(name: "PetSpotRegex"),
        // JSON Schema draft 2020-12 validator.
        .target(name: "PetSpotSchema", dependencies: ["PetSpotJSON", "PetSpotRegex"]),
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
        // Deliberate contract changes a candidate backend may ship (`mock --change`), the release
        // gate's planted changes.
        .target(name: "PetSpotContractChanges", dependencies: ["PetSpotContractKit"]),
        .target(
            name: "PetSpotMockBackend",
            dependencies: ["PetSpotJSON", "PetSpotHTTP", "PetSpotContractKit", "PetSpotContractChanges", "PetSpotConcurrency"]
        ),
        // The model's submission transport straight into the mock, with no sockets.
        .target(name: "PetSpotMockTransport", dependencies: ["PetSpotModel", "PetSpotMockBackend", "PetSpotHTTP"]),
        // The contract report: what was checked and what failed, its console, JSON, JUnit, HTML and
        // GitHub renderings, and the redaction of secrets in it.
        .target(name: "PetSpotReport", dependencies: ["PetSpotJSON", "PetSpotModel", "PetSpotConcurrency"]),
        // What every command shares at run time: its output, exit codes and errors, SIGINT and SIGTERM,
        // the progress line, threads for blocking work.
        .target(name: "PetSpotRuntime", dependencies: ["PetSpotReport", "PetSpotConcurrency"]),
        // The runner's HTTP clients: its own sockets for `http://`, URLSession for `https://`, with the
        // limits a run against a shared server needs.
        .target(
            name: "PetSpotHTTPClient",
            dependencies: [
                "PetSpotRuntime", "PetSpotReport", "PetSpotModel", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // The flow answers checked in-process: the oracles (the reference model, or any other), the flow
        // contracts and their causes of failure, the captured contract compiled.
        .target(
            name: "PetSpotFlowChecks",
            dependencies: [
                "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine", "PetSpotFlowGenerators",
                "PetSpotSchema", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotConcurrency",
            ]
        ),
        // An app's adapter program driven over the adapter protocol: its process group, its answers, its
        // setup failures.
        .target(
            name: "PetSpotAdapterDriving",
            dependencies: [
                "PetSpotFlowChecks", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotFlowGenerators",
                "PetSpotConcurrency", "PetSpotProcess",
            ]
        ),
        // The ritual every contract group shares: the session of a run, the backend target with its request
        // budget, transports, breaker and cleanup, paths and curl lines, and the support the groups read
        // answers with.
        .target(
            name: "PetSpotContractGroups",
            dependencies: [
                "PetSpotFlowChecks", "PetSpotHTTPClient", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel",
                "PetSpotPropertyEngine", "PetSpotFlowGenerators", "PetSpotContractKit", "PetSpotMockBackend",
                "PetSpotMockTransport", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // The fixed backend groups: health, the submission, the catalogs, every route's contracts.
        .target(
            name: "PetSpotBackendGroups",
            dependencies: [
                "PetSpotContractGroups", "PetSpotFlowChecks", "PetSpotReport", "PetSpotJSON", "PetSpotModel",
                "PetSpotFlowGenerators", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotConcurrency",
            ]
        ),
        // The stateful group: generated sequences of requests, and clients at once, judged by a model of
        // the store and shrunk.
        .target(
            name: "PetSpotSequences",
            dependencies: [
                "PetSpotContractGroups", "PetSpotFlowChecks", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel",
                "PetSpotPropertyEngine", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotConcurrency",
            ]
        ),
        // The app's own submission driven through a network that fails on purpose (the fault proxy),
        // judged by the submission properties beside the reference model.
        .target(
            name: "PetSpotSubmissionFaults",
            dependencies: [
                "PetSpotContractGroups", "PetSpotAdapterDriving", "PetSpotFlowChecks", "PetSpotRuntime", "PetSpotReport",
                "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine", "PetSpotFlowGenerators", "PetSpotMockBackend",
                "PetSpotMockTransport", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // The contract runner: the registry of the groups, the one loop that runs them, the one session
        // builder; it re-exports the runner's public part (Runtime, FlowChecks, AdapterDriving).
        .target(
            name: "PetSpotRunner",
            dependencies: [
                "PetSpotSubmissionFaults", "PetSpotSequences", "PetSpotBackendGroups", "PetSpotContractGroups",
                "PetSpotAdapterDriving", "PetSpotFlowChecks", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel",
                "PetSpotPropertyEngine", "PetSpotFlowGenerators", "PetSpotContractKit", "PetSpotMockBackend",
                "PetSpotMockTransport", "PetSpotHTTP", "PetSpotConcurrency",
            ]
        ),
        // Releases in the field: the release file, what a backend's rules tell apart, the Pact export.
        .target(
            name: "PetSpotReleases",
            dependencies: [
                "PetSpotSubmissionFaults", "PetSpotContractGroups", "PetSpotAdapterDriving", "PetSpotFlowChecks", "PetSpotRuntime",
                "PetSpotReport", "PetSpotFlowGenerators", "PetSpotPropertyEngine", "PetSpotJSON", "PetSpotModel", "PetSpotContractKit",
                "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotConcurrency",
            ]
        ),
        // The captured contract as an OpenAPI 3.1 document; its examples are the runner's own requests.
        .target(
            name: "PetSpotOpenAPI",
            dependencies: [
                "PetSpotContractGroups", "PetSpotJSON", "PetSpotModel", "PetSpotContractKit", "PetSpotMockBackend",
                "PetSpotMockTransport", "PetSpotHTTP",
            ]
        ),
        // The command line: each option declared once, the commands check, run, mock and openapi,
        // the exit codes; benchmarks and Bowtie plug in their commands.
        .target(
            name: "PetSpotCLI",
            dependencies: [
                "PetSpotReleases", "PetSpotOpenAPI", "PetSpotRunner", "PetSpotContractGroups", "PetSpotAdapterDriving", "PetSpotFlowChecks",
                "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotHTTP", "PetSpotConcurrency",
                "PetSpotProcess",
            ]
        ),
        // What only the tests and `bench` run: the backend groups against the mock's planted defects, the
        // submission under faults alone (not a product).
        .target(
            name: "PetSpotPlantedDefects",
            dependencies: [
                "PetSpotRunner", "PetSpotSubmissionFaults", "PetSpotSequences", "PetSpotContractGroups", "PetSpotFlowChecks",
                "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport",
            ]
        ),
        // The shipped benchmarks behind `petspot-contracts bench`.
        .target(
            name: "PetSpotBenchmarks",
            dependencies: [
                "PetSpotCLI", "PetSpotPlantedDefects", "PetSpotRunner", "PetSpotContractGroups", "PetSpotAdapterDriving",
                "PetSpotFlowChecks", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine",
                "PetSpotFlowGenerators", "PetSpotSchema", "PetSpotContractKit", "PetSpotMockBackend", "PetSpotHTTP",
                "PetSpotConcurrency",
                "PetSpotProcess",
            ]
        ),
        // Bowtie's JSON Schema harness protocol behind `petspot-contracts bowtie`.
        .target(name: "PetSpotBowtie", dependencies: ["PetSpotCLI", "PetSpotRuntime", "PetSpotJSON", "PetSpotSchema"]),
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
        // `.onOwnThreads`: suites whose tests wait run off Swift's cooperative pool.
        .target(name: "PetSpotTestSupport", dependencies: ["PetSpotConcurrency"], path: "Tests/PetSpotTestSupport"),
        // A filter around an adapter: respells the numbers of its answers in every valid JSON form
        // (`1E+1`, trailing zeros, `-0`), or plants a trimming helper that keeps U+FEFF.
        .executableTarget(
            name: "petspot-adapter-filter", dependencies: ["PetSpotJSON", "PetSpotPropertyEngine", "PetSpotProcess"], path: "Tests/PetSpotAdapterFilter"
        ),

        .testTarget(
            name: "PetSpotConformanceTests",
            dependencies: [
                "PetSpotModel", "PetSpotJSON", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotMockTransport", "PetSpotHTTP", "PetSpotSchema",
                "PetSpotRunner", "PetSpotFlowChecks", "PetSpotOpenAPI", "PetSpotReport",
            ]
        ),
        .testTarget(name: "PetSpotContractKitTests", dependencies: ["PetSpotContractKit", "PetSpotJSON"]),
        .testTarget(
            name: "PetSpotFlowGeneratorsTests",
            dependencies: ["PetSpotFlowGenerators", "PetSpotPropertyEngine", "PetSpotPropertyEngineTestSupport", "PetSpotModel"]
        ),
        .testTarget(
            name: "PetSpotPropertyEngineTests",
            dependencies: [
                "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotPropertyEngineTestSupport", "PetSpotConcurrency", "PetSpotTestSupport",
            ]
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
                "PetSpotProcess", "PetSpotTestSupport", "petspot-contracts",
            ]
        ),
        .testTarget(name: "PetSpotJSONTests", dependencies: ["PetSpotJSON"]),
        .testTarget(name: "PetSpotConcurrencyTests", dependencies: ["PetSpotConcurrency", "PetSpotTestSupport"]),
        // Child processes: spawning, pipes, group termination, and children that die with their parent
        // (the built `petspot-contracts` starts a `mock` for the parent watch).
        .testTarget(
            name: "PetSpotProcessTests",
            dependencies: [
                "PetSpotProcess", "PetSpotConcurrency", "PetSpotHTTPTestSupport", "PetSpotTestSupport", "petspot-contracts",
                "petspot-example-adapter",
            ]
        ),
        .testTarget(
            name: "PetSpotMockBackendTests",
            dependencies: [
                "PetSpotMockBackend", "PetSpotContractChanges", "PetSpotHTTP", "PetSpotHTTPTestSupport", "PetSpotJSON", "PetSpotContractKit",
                "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotConcurrency", "PetSpotProcess", "PetSpotTestSupport",
            ]
        ),
        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON", "PetSpotConcurrency"]),
        .testTarget(
            name: "PetSpotRunnerTests",
            dependencies: [
                "PetSpotReleases",
                "PetSpotCLI", "PetSpotOpenAPI", "PetSpotPlantedDefects", "PetSpotRunner", "PetSpotSubmissionFaults",
                "PetSpotSequences", "PetSpotBackendGroups", "PetSpotContractGroups", "PetSpotAdapterDriving", "PetSpotFlowChecks",
                "PetSpotHTTPClient", "PetSpotRuntime", "PetSpotReport", "PetSpotJSON", "PetSpotModel", "PetSpotPropertyEngine",
                "PetSpotPropertyTesting", "PetSpotFlowGenerators", "PetSpotSchema", "PetSpotContractKit", "PetSpotMockBackend",
                "PetSpotMockTransport", "PetSpotHTTP", "PetSpotHTTPTestSupport", "PetSpotTestSupport", "PetSpotConcurrency",
                "petspot-example-adapter", "petspot-contracts", "petspot-adapter-filter",
                "PetSpotProcess",
            ],
            // The golden files of GoldenCLITests, read by path (and rewritten with PETSPOT_UPDATE_GOLDEN=1).
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "PetSpotSchemaTests",
            dependencies: ["PetSpotSchema", "PetSpotJSON", "PetSpotPropertyEngine", "PetSpotPropertyTesting", "PetSpotBowtie"]
        ),
        .testTarget(name: "PetSpotReleasesTests", dependencies: ["PetSpotReleases", "PetSpotJSON", "PetSpotModel", "PetSpotContractKit"]),
        .testTarget(name: "PetSpotRegexTests", dependencies: ["PetSpotRegex", "PetSpotPropertyEngine", "PetSpotPropertyTesting"]),
        .testTarget(name: "PetSpotBenchmarksTests", dependencies: ["PetSpotBenchmarks", "PetSpotCLI", "PetSpotRunner"]),
    ],
    swiftLanguageModes: [.v6]
)
