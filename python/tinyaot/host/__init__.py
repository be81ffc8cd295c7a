"""Running on the host: a generated model compiled and called through ctypes (model.py),
CMSIS-NN built for the host (cmsis_nn.py), and TFLM through the tflite-micro package, the
oracle every result is checked against (oracle.py)."""
