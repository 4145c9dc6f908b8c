import Foundation
import PackagePlugin

/// Build-tool plugin: turns the package's Assets/ directory into a Swift
/// source of the target that uses it, so assets are part of the binary
/// (no resource bundle to lose next to the executable).
@main struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let assets = context.package.directoryURL.appending(path: "Assets")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: assets, includingPropertiesForKeys: nil) {
            while let url = walker.nextObject() as? URL { inputs.append(url) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssetFiles.swift")
        return [.buildCommand(displayName: "Embedding Assets/ into \(target.name)",
                              executable: try context.tool(named: "asset-embedder").url,
                              arguments: [assets.path, output.path],
                              inputFiles: inputs, outputFiles: [output])]
    }
}
