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
    ],
    targets: [
        // JSON value type, parser and serializer shared by every other part.
        .target(name: "PetSpotJSON"),
        // The report flows, their field rules, payloads, wire types and submission.
        .target(name: "PetSpotModel", dependencies: ["PetSpotJSON"]),

        .testTarget(name: "PetSpotModelTests", dependencies: ["PetSpotModel", "PetSpotJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
