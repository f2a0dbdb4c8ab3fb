// swift-tools-version:5.9
// A package that uses the Notepress library (Tests/NotepressCLITests/PackageFixtureTests.swift copies
// it to a temporary folder, puts the checkout's path in place of the marker below and writes the
// README's first library example into Sources/ReadmeExample/main.swift before building it).
import PackageDescription

let package = Package(
    name: "LibraryUser",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Notepress", path: "@NOTEPRESS_CHECKOUT@")],
    targets: [
        .executableTarget(name: "ReadmeExample", dependencies: [.product(name: "Notepress", package: "Notepress")]),
    ]
)
