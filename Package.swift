// swift-tools-version: 6.0
// PetSpot Contracts: conformance and contract tests for the PetSpot report flows.
// No package dependencies: only the toolchain's Foundation, XCTest and Swift Testing.
import PackageDescription

let package = Package(
    name: "PetSpotContracts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PetSpotJSON", targets: ["PetSpotJSON"]),
        .library(name: "PetSpotModel", targets: ["PetSpotModel"]),
        .library(name: "PetSpotGenerators", targets: ["PetSpotGenerators"]),
        .library(name: "PetSpotPropertyTesting", targets: ["PetSpotPropertyTesting"]),
        .library(name: "PetSpotFlowGenerators", targets: ["PetSpotFlowGenerators"]),
        .library(name: "PetSpotSchema", targets: ["PetSpotSchema"]),
        .library(name: "PetSpotContractKit", targets: ["PetSpotContractKit"]),
        .library(name: "PetSpotHTTP", targets: ["PetSpotHTTP"]),
        .library(name: "PetSpotMockBackend", targets: ["PetSpotMockBackend"]),
        .library(name: "PetSpotRunner", targets: ["PetSpotRunner"]),
        .executable(name: "petspot-contracts", targets: ["petspot-contracts"]),
        .executable(name: "petspot-example-adapter", targets: ["petspot-example-adapter"]),
    ],
    targets: [
        // JSON value type, parser and serializer shared by every other part.
        .target(name: "PetSpotJSON"),
        // The report flows, their field rules, payloads, wire types and submission.
        .target(name: "PetSpotModel", dependencies: ["PetSpotJSON"]),
        // The property-based testing engine: choice sequences and integrated shrinking.
        .target(name: "PetSpotGenerators", path: "Generators/Engine"),
        // The engine's Swift Testing and XCTest integration (failures at the caller's line).
        .target(name: "PetSpotPropertyTesting", dependencies: ["PetSpotGenerators"], path: "Generators/Testing"),
        // Raw user input and wizard action generators for both report flows.
        .target(
            name: "PetSpotFlowGenerators",
            dependencies: ["PetSpotGenerators", "PetSpotModel", "PetSpotJSON"],
            path: "Generators/Flows"
        ),
        // JSON Schema draft 2020-12 validator and the Bowtie harness.
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
        .target(name: "PetSpotHTTP"),
        // Strict-schema mock backend: in-process handler and HTTP server on loopback.
        .target(
            name: "PetSpotMockBackend",
            dependencies: ["PetSpotJSON", "PetSpotHTTP", "PetSpotContractKit", "PetSpotModel"]
        ),
        // The contract runner: check, run, adapter driving, reports, benchmarks.
        .target(
            name: "PetSpotRunner",
            dependencies: [
                "PetSpotJSON", "PetSpotModel", "PetSpotGenerators", "PetSpotFlowGenerators", "PetSpotSchema",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotHTTP",
            ]
        ),
        .executableTarget(name: "petspot-contracts", dependencies: ["PetSpotRunner"]),
        // An adapter (sut-protocol.md) around the reference model, with switches that break it.
        .executableTarget(name: "petspot-example-adapter", dependencies: ["PetSpotModel", "PetSpotJSON"]),

        .testTarget(
            name: "PetSpotConformanceTests",
            dependencies: [
                "PetSpotModel", "PetSpotJSON", "PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotHTTP", "PetSpotSchema", "PetSpotRunner",
            ]
        ),
        .testTarget(name: "PetSpotContractKitTests", dependencies: ["PetSpotContractKit", "PetSpotJSON"]),
        .testTarget(name: "PetSpotFlowGeneratorsTests", dependencies: ["PetSpotFlowGenerators", "PetSpotGenerators", "PetSpotModel"]),
        // Machines with planted bugs shared by the engine's Swift Testing and XCTest tests.
        .target(name: "PetSpotGeneratorsTestSupport", dependencies: ["PetSpotGenerators"], path: "Tests/PetSpotGeneratorsTestSupport"),
        .testTarget(
            name: "PetSpotGeneratorsTests",
            dependencies: ["PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotGeneratorsTestSupport"]
        ),
        .testTarget(
            name: "PetSpotGeneratorsXCTests",
            dependencies: ["PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotGeneratorsTestSupport"]
        ),
        .testTarget(
            name: "PetSpotHTTPTests",
            dependencies: ["PetSpotHTTP", "PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotFlowGenerators"]
        ),
        .testTarget(name: "PetSpotJSONTests", dependencies: ["PetSpotJSON"]),
        .testTarget(
            name: "PetSpotMockBackendTests",
            dependencies: [
                "PetSpotMockBackend", "PetSpotHTTP", "PetSpotJSON", "PetSpotContractKit", "PetSpotGenerators",
                "PetSpotPropertyTesting", "PetSpotFlowGenerators",
            ]
        ),
        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON"]),
        .testTarget(
            name: "PetSpotRunnerTests",
            dependencies: [
                "PetSpotRunner", "PetSpotModel", "PetSpotJSON", "PetSpotMockBackend", "PetSpotContractKit",
                "petspot-example-adapter", "petspot-contracts",
            ]
        ),
        .testTarget(
            name: "PetSpotSchemaTests",
            dependencies: ["PetSpotSchema", "PetSpotJSON", "PetSpotGenerators", "PetSpotPropertyTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
