/// `spconnect man`: the manual page (roff) made from the same help text; `scripts/install.sh` installs it.
let manCommand = Command(
    name: "man", summary: "Print the spconnect(1) manual page in roff, made from the command help.", synopsis: "",
    options: [], examples: ["spconnect man | man -l -"], hidden: true
) { arguments in
    _ = try positionals(arguments)
    print(Manual.page(commands: commands, version: version).render(), terminator: "")
    return .ok
}
