"""compare.py's child processes: pinned to one core, read line by line with a timeout, waited for
in one blocking call (so the clock stops when they exit), killed as a group; a progress bar."""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager


@contextmanager
def pinned(core: int):
    """Pin the calling thread to one core while a child is forked (the child inherits the
    affinity from its first instruction on), then restore the thread's own affinity."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


class LineReader:
    """Reads JSON lines from a pipe with a timeout per line."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.fd, selectors.EVENT_READ)
        self.buf = b""
        self.eof = False

    def read(self, timeout: float):
        """Next decoded object; None on EOF; raises TimeoutError if nothing arrives in time."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            if self.eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0 or not self.sel.select(left):
                raise TimeoutError
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def close(self):
        self.sel.close()


def children_cpu() -> float:
    """User + system CPU seconds of the waited-for children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def kill_group(proc: subprocess.Popen):
    """Kill a worker started in its own session (its pid is the group id)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def wait_exact(proc: subprocess.Popen, limit: float):
    """Wait for a process in one blocking call, so the caller's clock stops when it exits, and
    kill its group after `limit` seconds. (`Popen.wait(timeout=...)` polls with sleeps of up to
    50 ms: a run of victor over a set's test pages takes about 0.1 to 0.3 s, so the poll had
    added up to half of that again.) Returns the exit code, or "timeout"."""
    fired = threading.Event()

    def kill():
        fired.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(limit, kill)
    timer.daemon = True
    timer.start()
    try:
        rc = proc.wait()
    finally:
        timer.cancel()
    return "timeout" if fired.is_set() else rc


def progress(total: int, desc: str):
    """A tqdm bar on stderr, or a silent stand-in when tqdm is missing."""
    try:
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # no monitor thread: children are forked from this process
        return tqdm(total=total, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)
    except ImportError:

        class Bar:
            def update(self, n=1):
                pass

            def set_postfix_str(self, s):
                pass

            def close(self):
                pass

        print(f"{desc}: {total} pages", file=sys.stderr)
        return Bar()
