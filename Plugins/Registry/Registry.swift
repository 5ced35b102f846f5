import Foundation
import PackagePlugin

/// Lists the values a target registers (spconnect's commands, spsim's REST routes) in a generated file, so that a
/// new command or route is one declaration in its own file (Tools/registry-generator says how one is declared).
@main struct Registry: BuildToolPlugin {
    /// The types whose declarations are listed, by target.
    static let types = ["spconnect": "Command", "SPSim": "RESTRoute"]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget, let types = Self.types[target.name] else { return [] }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "Registered.swift")
        return [
            .buildCommand(
                displayName: "Listing the registered \(types) values of \(target.name)",
                executable: try context.tool(named: "registry-generator").url,
                arguments: [output.path, types] + sources.map(\.path),
                inputFiles: sources, outputFiles: [output])
        ]
    }
}
