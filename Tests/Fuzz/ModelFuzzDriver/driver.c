#include "ModelFuzzDriver.h"

#ifdef MODELFUZZ_LIBFUZZER
// libFuzzer's C entry point (libclang_rt.fuzzer_no_main), linked only by Scripts/fuzz.sh.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int modelfuzz_run_libfuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
#else
int modelfuzz_run_libfuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    (void)argc;
    (void)argv;
    (void)callback;
    return -1;
}
#endif
