// libFuzzer's entry point for a program that keeps its own main (hybrid-fuzz picks the target
// from its arguments, then hands the rest to libFuzzer). Only declared here: the symbol is in
// libFuzzer's runtime, which `-sanitize=fuzzer` links, and only a fuzzing build calls it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
