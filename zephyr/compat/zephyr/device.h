/* Zephyr < 3.1 compatibility (tinyaot module): the header's pre-3.1 path. */
#include <device.h>
