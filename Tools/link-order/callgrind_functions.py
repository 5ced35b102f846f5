"""Lists the functions of one program that callgrind saw run, as the linker's symbol-ordering file wants them.

    callgrind_functions.py [--map LINK_MAP] PROGRAM_NAME CALLGRIND_FILE...

Reads callgrind's output files (written with --demangle=no, so the names are the symbols themselves) and prints,
one per line, every function that ran inside the object whose path ends with PROGRAM_NAME: first the functions
of the first file, then those of the next that were not seen yet. Functions of shared libraries are left out:
the linker can only order what it links. Callgrind's cycle suffix ("'2") is not part of a symbol and is dropped.

With --map (lld's -Map output of the same program), the functions are ordered by the size of the input section that
holds them, smallest first: a function in a section of its own packs tightly, while one inside a library object's
single .text section drags the whole section along, so those come last and do not push the small ones apart.
"""
import re
import sys

# callgrind names an object, file or function once in full ("fn=(12) name") and by its number afterwards ("fn=(12)").
NAMED = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")
CYCLE = re.compile(r"'\d+$")


def functions_run(program, path, seen, ordered):
    objects, functions = {}, {}
    current_object = called_object = None
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            match = NAMED.match(line.rstrip("\n"))
            if not match:
                continue
            kind, number, name = match.groups()
            if kind in ("ob", "cob"):
                if name is not None:
                    objects[number] = name
                if kind == "ob":
                    current_object = objects.get(number)
                else:
                    called_object = objects.get(number)
                continue
            if name is not None:
                functions[number] = CYCLE.sub("", name)
            # a called function ("cfn") lives in the object a preceding "cob" named, else in the caller's
            owner = current_object if kind == "fn" else (called_object or current_object)
            if kind == "cfn":
                called_object = None
            symbol = functions.get(number)
            if owner and symbol and owner.endswith("/" + program) and symbol not in seen:
                seen.add(symbol)
                ordered.append(symbol)


# lld's map: "VMA LMA Size Align Out/In/Symbol", an output section at 0 spaces, an input section at 8, a symbol at 16.
MAP_LINE = re.compile(r"^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (.*)$")


def text_section_sizes(map_path):
    """Each symbol of the map's .text, with the size of the input section that holds it."""
    sizes, in_text, section_size = {}, False, None
    with open(map_path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            match = MAP_LINE.match(line.rstrip("\n"))
            if not match:
                continue
            size, rest = int(match.group(1), 16), match.group(2)
            if not rest.startswith(" "):
                in_text = rest.strip() == ".text"
            elif in_text and rest.startswith(" " * 16):
                sizes.setdefault(rest.strip(), section_size)
            elif in_text and rest.startswith(" " * 8):
                section_size = size
    return sizes


def main(arguments):
    map_path = None
    if arguments[:1] == ["--map"] and len(arguments) > 1:
        map_path, arguments = arguments[1], arguments[2:]
    if len(arguments) < 2:
        sys.exit("usage: callgrind_functions.py [--map LINK_MAP] PROGRAM_NAME CALLGRIND_FILE...")
    program, paths = arguments[0], arguments[1:]
    seen, ordered = set(), []
    for path in paths:
        functions_run(program, path, seen, ordered)
    if not ordered:
        sys.exit(f"callgrind_functions.py: no function of {program} in {', '.join(paths)}")
    if map_path:
        sizes = text_section_sizes(map_path)
        if not sizes:
            sys.exit(f"callgrind_functions.py: no .text symbols in the link map {map_path}")
        unknown = max(sizes.values()) + 1  # a name the map does not give (callgrind's "0x…") goes last
        ordered.sort(key=lambda symbol: sizes.get(symbol, unknown))  # stable: first-run order within a size
    sys.stdout.write("".join(symbol + "\n" for symbol in ordered))


if __name__ == "__main__":
    main(sys.argv[1:])
