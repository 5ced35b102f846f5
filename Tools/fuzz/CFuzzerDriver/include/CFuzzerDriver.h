#pragma once
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer, linked by `-sanitize=fuzzer`): runs the fuzzing
/// loop with the command-line flags in argc/argv, calling `callback` for each input. Declared here because the
/// fuzz targets keep their own `@main` (SwiftPM points an executable's entry at it), so libFuzzer's `main` is not
/// the one that runs.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
