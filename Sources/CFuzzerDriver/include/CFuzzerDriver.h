// libFuzzer's entry point for a program with its own main (libclang_rt.fuzzer_no_main): the fuzz
// executable is a SwiftPM executable target, whose main SwiftPM renames and aliases, so it cannot
// take libFuzzer's main. Linked only in fuzz builds (scripts/fuzz); nothing else calls it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
