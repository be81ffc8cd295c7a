"""tinyaot's own fuzzer: structured mutations of models, each case classified as a clean
error, a success (compiles warning-free, runs under ASan/UBSan, writes every output and
matches TFLM when TFLM accepts the model) or a defect."""
