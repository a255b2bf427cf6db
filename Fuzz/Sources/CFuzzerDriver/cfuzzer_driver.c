// Declarations only (include/cfuzzer_driver.h); the definitions come with -sanitize=fuzzer.
