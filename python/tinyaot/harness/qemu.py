"""Start QEMU with the firmware's UART on a pseudo-terminal, and always stop it.

Every QEMU started here is stopped on context exit, at interpreter exit
(atexit), on SIGTERM/SIGHUP, and by the kernel if this process dies
(PR_SET_PDEATHSIG), so no emulator outlives a test run.
"""

import atexit
import ctypes
import os
import re
import selectors
import signal
import subprocess
import time

from .errors import HarnessError

QEMU = os.environ.get("TINYAOT_QEMU", "qemu-system-arm")
# Virtual time per instruction is 2**shift ns. Any shift is deterministic;
# 6 (64 ns) is close to one SysTick tick (62.5 ns at 16 MHz, 80 ns at 12.5 MHz),
# so instruction counts derived from ticks are exact to about one instruction.
DEFAULT_ICOUNT_SHIFT = 6

_PTY_RE = re.compile(rb"char device redirected to (/dev/\S+)")
_live = set()


def _stop_all():
    for proc in list(_live):
        _kill(proc)


def _kill(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    _live.discard(proc)


def _on_signal(signum, frame):
    _stop_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_handlers():
    atexit.register(_stop_all)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                signal.signal(sig, _on_signal)
        except ValueError:  # not the main thread: atexit and PDEATHSIG remain
            pass


_install_handlers()


def _die_with_parent():
    """In the child: ask Linux to SIGKILL it when the parent dies."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class Qemu:
    """A running QEMU; use as a context manager. `pty` is the UART's device path."""

    def __init__(self, elf, machine_args, icount_shift=DEFAULT_ICOUNT_SHIFT,
                 extra_args=(), start_timeout=10.0):
        self.icount_shift = icount_shift
        self.cmd = [QEMU, *machine_args, "-kernel", str(elf), "-nographic",
                    "-monitor", "none", "-serial", "pty", "-no-reboot",
                    "-icount", f"shift={icount_shift}", *extra_args]
        self.proc = None
        self.pty = None
        self.start_timeout = start_timeout

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        _live.add(self.proc)
        out = b""
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:
                m = _PTY_RE.search(out)
                if m:
                    self.pty = m.group(1).decode()
                    return self
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    break
                if sel.select(timeout=0.2):
                    chunk = os.read(self.proc.stdout.fileno(), 4096)
                    if not chunk:
                        self.proc.wait(timeout=2)
                        break
                    out += chunk
        finally:
            sel.close()
        self.stop()
        raise HarnessError(f"QEMU did not start ({' '.join(self.cmd)}): "
                           f"{out.decode(errors='replace').strip() or 'no output'}")

    def stop(self):
        if self.proc is not None:
            _kill(self.proc)
            if self.proc.stdout:
                self.proc.stdout.close()

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc):
        self.stop()
        return False
