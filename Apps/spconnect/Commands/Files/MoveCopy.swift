import CommandLineKit
import FileOperations
import Presentation
import SharePoint

/// What `mv` and `cp` share: the options, the rows and the messages around the file operations' ``Relocation``.
enum MoveCopy {
    static let options: [OptionSpec] =
        [
            .flag(.overwrite, "replace a file already at DEST (otherwise it is refused, exit 9; never a folder)"),
            .flag(.dryRun, short: "n", "only say what would be done; nothing is changed"),
        ] + SiteContext.options

    static func examples(_ name: String) -> [String] {
        [
            "spconnect \(name) 'Shared Documents/report.docx' Documents/Archive",
            "spconnect \(name) Documents/draft.txt Documents/final.txt --overwrite",
            "spconnect \(name) Documents/2025 Documents/Archive/2025",
            "spconnect \(name) --dry-run Documents/a.txt Documents/Reports/",
        ]
    }

    static func run(_ arguments: ParsedArguments, copying: Bool) async throws -> ExitCode {
        let command = copying ? "cp" : "mv"
        return try await withSiteErrors(command) {
            let words = try positionals(arguments, "SOURCE", "DEST")
            let overwrite = arguments.has(.overwrite)
            let output = try Output(arguments)
            let site = try SiteContext.open(arguments).site
            let plan: Relocation
            do {
                plan = try await Relocation.plan(from: words[0], to: words[1], copying: copying, site: site)
            } catch let refusal as RelocationRefusal {
                throw UsageError(description: refusal.description)
            }
            let (source, target, existing) = (plan.source, plan.target, plan.existing)
            if let existing, !plan.replaces(overwrite: overwrite) {
                let advice =
                    existing.kind == "file" && source.kind == "file"
                    ? "; add --overwrite to replace it" : " (a folder is never replaced, nor a file by a folder)"
                printError(
                    "spconnect \(command): A \(existing.kind) already exists at \(target)\(advice). Nothing was changed."
                )
                output.render(
                    RecordSet(columns: Relocation.columns, records: [plan.record(result: "refused (exists)")]))
                return .conflict
            }
            let verb = copying ? "copy" : "move"
            let suffix = existing == nil ? "" : ", replacing"
            if arguments.has(.dryRun) {
                output.render(
                    RecordSet(columns: Relocation.columns, records: [plan.record(result: "would \(verb)\(suffix)")]))
                output.note("Dry run: nothing was changed.")
                return .ok
            }
            do {
                try await plan.carryOut(overwrite: overwrite, site: site)
            } catch let error as SharePointError where error.kind == .alreadyExists {
                // Made there since it was checked.
                printError("spconnect \(command): Something already exists at \(target)." + error.details)
                return .conflict
            }
            let done = copying ? "copied" : "moved"
            output.render(RecordSet(columns: Relocation.columns, records: [plan.record(result: done + suffix)]))
            return .ok
        }
    }
}
