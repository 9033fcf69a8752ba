#ifndef MODELFUZZ_DRIVER_H
#define MODELFUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`) on `callback` when this target was compiled
/// with `-DMODELFUZZ_LIBFUZZER` (Scripts/fuzz.sh); otherwise returns -1 at once.
int modelfuzz_run_libfuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
