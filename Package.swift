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
        .library(name: "PetSpotContractKit", targets: ["PetSpotContractKit"]),
        .library(name: "PetSpotHTTP", targets: ["PetSpotHTTP"]),
        .library(name: "PetSpotMockBackend", targets: ["PetSpotMockBackend"]),
    ],
    targets: [
        // JSON value type, parser and serializer shared by every other part.
        .target(name: "PetSpotJSON"),
        // The report flows, their field rules, payloads, wire types and submission.
        .target(name: "PetSpotModel", dependencies: ["PetSpotJSON"]),
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
            dependencies: ["PetSpotJSON", "PetSpotHTTP", "PetSpotContractKit"]
        ),

        .testTarget(name: "PetSpotContractKitTests", dependencies: ["PetSpotContractKit", "PetSpotJSON"]),
        .testTarget(name: "PetSpotHTTPTests", dependencies: ["PetSpotHTTP"]),
        .testTarget(
            name: "PetSpotMockBackendTests",
            dependencies: ["PetSpotMockBackend", "PetSpotHTTP", "PetSpotJSON", "PetSpotContractKit"]
        ),
        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
