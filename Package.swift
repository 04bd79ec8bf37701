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
        .library(name: "PetSpotContractKit", targets: ["PetSpotContractKit"]),
        .library(name: "PetSpotHTTP", targets: ["PetSpotHTTP"]),
        .library(name: "PetSpotMockBackend", targets: ["PetSpotMockBackend"]),
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

        .testTarget(
            name: "PetSpotConformanceTests",
            dependencies: [
                "PetSpotModel", "PetSpotJSON", "PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotFlowGenerators",
                "PetSpotContractKit", "PetSpotMockBackend", "PetSpotHTTP",
            ]
        ),
        .testTarget(name: "PetSpotContractKitTests", dependencies: ["PetSpotContractKit", "PetSpotJSON"]),
        .testTarget(name: "PetSpotFlowGeneratorsTests", dependencies: ["PetSpotFlowGenerators", "PetSpotGenerators", "PetSpotModel"]),
        .testTarget(name: "PetSpotGeneratorsTests", dependencies: ["PetSpotGenerators", "PetSpotPropertyTesting"]),
        .testTarget(name: "PetSpotGeneratorsXCTests", dependencies: ["PetSpotGenerators", "PetSpotPropertyTesting"]),
        .testTarget(
            name: "PetSpotHTTPTests",
            dependencies: ["PetSpotHTTP", "PetSpotGenerators", "PetSpotPropertyTesting", "PetSpotFlowGenerators"]
        ),
        .testTarget(
            name: "PetSpotMockBackendTests",
            dependencies: [
                "PetSpotMockBackend", "PetSpotHTTP", "PetSpotJSON", "PetSpotContractKit", "PetSpotGenerators",
                "PetSpotPropertyTesting", "PetSpotFlowGenerators",
            ]
        ),
        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
