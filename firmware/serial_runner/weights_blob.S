/* The model's weights blob (TINYAOT_RUNNER_WEIGHTS=blob), in a section of its own. */
    .section .rodata.tinyaot_runner_blob, "a"
    .balign 4
    .global tinyaot_runner_blob
tinyaot_runner_blob:
    .incbin TINYAOT_RUNNER_BLOB_FILE
    .global tinyaot_runner_blob_end
tinyaot_runner_blob_end:
