// swift-tools-version: 6.0
// ReportFlowContracts/Package.swift: the app's contract-test package, beside a clone of petspot-contracts.
import PackageDescription

// SwiftPM names a path or URL dependency after the last component of its path or URL (without
// ".git"), whatever the package calls itself: here "petspot-contracts".
let contracts = "petspot-contracts"

let package = Package(
    name: "ReportFlowContracts",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(path: "../petspot-contracts"),  // or .package(url: "https://<host>/petspot-contracts.git", from: "1.0.0")
    ],
    targets: [
        // The app's report code. In a real app this is the module with the flow state and the payload mapper.
        .target(name: "MyAppReports", dependencies: [
            .product(name: "PetSpotModel", package: contracts), .product(name: "PetSpotJSON", package: contracts),
        ]),
        .testTarget(name: "ReportFlowContractTests", dependencies: [
            "MyAppReports",
            .product(name: "PetSpotJSON", package: contracts),
            .product(name: "PetSpotModel", package: contracts),
            .product(name: "PetSpotPropertyEngine", package: contracts),   // require(_:_:), Gen
            .product(name: "PetSpotPropertyTesting", package: contracts),  // propertyCheck for Swift Testing and XCTest
            .product(name: "PetSpotFlowGenerators", package: contracts),
            .product(name: "PetSpotMockBackend", package: contracts),
            .product(name: "PetSpotMockTransport", package: contracts),
        ]),
    ]
)
