# Sourced by scripts/install.sh and Tools/link-order/record.sh (from the package root): the release build of the
# installed programs, as the array `installed_build` (add `--product NAME`, or `--show-bin-path`).
#
# The Swift runtime and Foundation linked in (decision 0016): the installed programs start in about 0.7 of the time
# and keep working wherever the toolchain goes. Linked by lld with the functions a sign-in runs side by side
# (decision 0032): every function in a section of its own, placed in Tools/link-order/hot-functions.txt's order, so a
# run maps a few hundred kilobytes of code in rather than pages spread over 19 MB, and the compiler's private
# functions, which have no names to order by, gathered before them (private-functions.ld); the program's own symbols not
# exported (the toolchain's link arguments export them, and every symbol the shared libraries look up then searches
# them first: nothing looks the program up by name, and `--keep-symbols` still keeps them for debuggers); relative relocations packed
# (DT_RELR) where the C library reads them (glibc 2.36 and later: Debian 12). Its own scratch path: objects built
# without function sections would be kept there (the compiler skips code generation when a file's code is unchanged).
installed_build=(swift build -c release --static-swift-stdlib --scratch-path .build/installed)
if [ -x "$(dirname "$(command -v swift)")/ld.lld" ] || command -v ld.lld >/dev/null; then
    installed_build+=(-Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections
        -Xlinker "--symbol-ordering-file=$PWD/Tools/link-order/hot-functions.txt" -Xlinker --no-warn-symbol-ordering
        -Xlinker --no-export-dynamic -Xlinker -T -Xlinker "$PWD/Tools/link-order/private-functions.ld")
    installed_glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
    if [ -n "$installed_glibc" ] && [ "$(printf '%s\n2.36\n' "$installed_glibc" | sort -V | head -n 1)" = 2.36 ]; then
        installed_build+=(-Xlinker -z -Xlinker pack-relative-relocs)
    fi
else
    echo "note: no ld.lld beside swift; the programs are linked without the hot-code order (more memory per run)" >&2
fi
