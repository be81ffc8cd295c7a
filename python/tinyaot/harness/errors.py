"""Exceptions raised by the target harness. Each message says what went wrong."""


class HarnessError(Exception):
    """Base class of every harness failure."""


class BuildError(HarnessError):
    """Configuring or building the firmware failed; the message carries the build log tail."""


class DeviceTimeout(HarnessError):
    """The device did not answer in time (hung, or the link is dead)."""


class DeviceFault(HarnessError):
    """The device reported a fatal exception (a 'FATAL: ...' line)."""


class ProtocolError(HarnessError):
    """Bytes on the line that are not a valid frame: garbage, noise, a bad CRC."""


class DeviceError(HarnessError):
    """The device answered with an ERROR frame (it rejected a request)."""
