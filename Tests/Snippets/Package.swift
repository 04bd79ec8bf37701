// swift-tools-version: 6.0
// The documentation's Swift snippets, built by scripts/check-snippets.sh against this repository
// by path. The script copies this directory to .build/snippets/DocSnippets beside a link named
// petspot-contracts to the repository, and adds every ```swift block of README.md, docs/ and
// Contracts/README.md: blocks marked `file=DocSnippets/PATH` at PATH, the others as files of
// DocSnippetTests. PetSpotApp stands in for the app module docs/ADAPTERS.md's adapter imports.
import PackageDescription

let contracts = "petspot-contracts"

let package = Package(
    name: "DocSnippets",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../petspot-contracts")],
    targets: [
        .target(name: "PetSpotApp", dependencies: [
            .product(name: "PetSpotModel", package: contracts), .product(name: "PetSpotJSON", package: contracts),
        ]),
        .executableTarget(name: "PetSpotFlowAdapter", dependencies: ["PetSpotApp"]),
        .testTarget(name: "DocSnippetTests", dependencies: [
            .product(name: "PetSpotJSON", package: contracts),
            .product(name: "PetSpotModel", package: contracts),
            .product(name: "PetSpotPropertyEngine", package: contracts),
            .product(name: "PetSpotPropertyTesting", package: contracts),
            .product(name: "PetSpotFlowGenerators", package: contracts),
            .product(name: "PetSpotSchema", package: contracts),
            .product(name: "PetSpotContractKit", package: contracts),
            .product(name: "PetSpotMockBackend", package: contracts),
            .product(name: "PetSpotMockTransport", package: contracts),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
