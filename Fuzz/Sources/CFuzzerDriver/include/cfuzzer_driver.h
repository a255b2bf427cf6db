// libFuzzer's driver, entered from the Swift main of each fuzz target: SwiftPM links its own
// entry point as `main`, so libFuzzer's main never runs. Provided by -sanitize=fuzzer's runtime.
#ifndef CFUZZER_DRIVER_H
#define CFUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
