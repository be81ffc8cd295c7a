/* hello_world.weights.bin, in a section of its own. */
    .section .rodata.tinyaot_weights_blob, "a"
    .balign 4
    .global weights_blob
weights_blob:
    .incbin WEIGHTS_BLOB_FILE
    .global weights_blob_end
weights_blob_end:
