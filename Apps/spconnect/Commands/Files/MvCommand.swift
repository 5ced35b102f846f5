/// `spconnect mv SOURCE DEST`: a file or folder moved within the site (`MoveTo`).
let mvCommand = Command(
    name: "mv",
    summary: "Move a file or folder within the site: to another name, or into a folder (keeping its name).",
    synopsis: "SOURCE DEST [--overwrite] [--dry-run]   (SOURCE, DEST: file or folder paths; see docs/cli.md)",
    options: MoveCopy.options, examples: MoveCopy.examples("mv")
) { arguments in
    try await MoveCopy.run(arguments, copying: false)
}
