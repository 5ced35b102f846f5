/// `spconnect cp SOURCE DEST`: a copy of a file or folder within the site (`CopyTo`).
let cpCommand = Command(
    name: "cp",
    summary: "Copy a file or folder within the site: under another name, or into a folder (keeping its name).",
    synopsis: "SOURCE DEST [--overwrite] [--dry-run]   (SOURCE, DEST: file or folder paths; see docs/cli.md)",
    options: MoveCopy.options, examples: MoveCopy.examples("cp")
) { arguments in
    try await MoveCopy.run(arguments, copying: true)
}
