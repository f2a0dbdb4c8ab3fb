// swift-tools-version:5.9
// A package that uses Notepress's plugins, as a Swift developer would (Tests/NotepressCLITests/
// PackageFixtureTests.swift copies it to a temporary folder and puts the checkout's path in place
// of the marker below):
// - `swift package --allow-writing-to-package-directory notepress convert docs -o site`
//   (the NotepressCommand plugin) converts docs/ into site/;
// - HelpViewer's Help/*.md and *.note become HTML resources at build time (NotepressBuildPlugin).
import PackageDescription

let package = Package(
    name: "PluginUser",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Notepress", path: "@NOTEPRESS_CHECKOUT@")],
    targets: [
        .executableTarget(
            name: "HelpViewer",
            plugins: [.plugin(name: "NotepressBuildPlugin", package: "Notepress")]),
    ]
)
