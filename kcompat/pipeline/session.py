"""The SparkSession: local by default, a real cluster unchanged.

No master is hard-coded: ``--master`` wins; under ``spark-submit`` the submitted master is
used; otherwise ``local[*]``. Locally the UI is off, everything binds to 127.0.0.1, logs
are quiet, and Python workers run this interpreter. ``--remote sc://HOST:PORT`` (or
``SPARK_REMOTE``) uses a Spark Connect server instead, and needs no Java here. Missing
pyspark or Java, a bad master or an unreachable server is one clear line, not a stack
trace.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
from collections.abc import Iterator
from typing import Any

from kcompat.errors import UsageError, one_line


def _under_spark_submit() -> bool:
    # spark-submit starts the driver with these set (the gateway is already up).
    return "PYSPARK_GATEWAY_PORT" in os.environ or "SPARK_SUBMIT_OPTS" in os.environ


def require_spark(java: bool = True) -> None:
    """Fail with one line if pyspark or (when this process starts a JVM) Java is missing."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        from kcompat.provenance import installed

        raise UsageError(
            f"pyspark is not installed: {installed().install_line('spark')} (needs Java 17+)"
        ) from None
    if java and not _under_spark_submit():
        java_home = os.environ.get("JAVA_HOME")
        found = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
        if not found or not os.path.exists(found):
            raise UsageError(
                "Java was not found (Spark needs Java 17 or later): install a JDK or set JAVA_HOME"
            )


def class_data_sharing() -> str | None:
    """JVM options for a class-data-sharing archive of Spark's classes (local masters).

    A local run spends most of its fixed cost starting the JVM and loading Spark's
    classes (about 4 s, then 1.5 s in the first job); mapping an archive of those classes
    saves about 3 s of wall time per run. The first run writes the archive at exit (about
    160 MB, after kcompat's own output), into the user's cache directory
    (``~/.cache/kcompat``, as :mod:`kcompat.cache` places it), one per Java and Spark
    installation; later runs map it. ``KCOMPAT_SPARK_CDS=off`` turns this off (a one-off
    CI run gains nothing from it); ``KCOMPAT_SPARK_CDS=FILE`` chooses the archive.
    """
    chosen = os.environ.get("KCOMPAT_SPARK_CDS", "").strip()
    if chosen.lower() in ("off", "0", "no", "false"):
        return None
    path = os.path.abspath(os.path.expanduser(chosen)) if chosen else _default_archive()
    if path is None:
        return None
    # The JVM logs to stdout by default (the dump's "Skipping ..." lines): errors only,
    # and to stderr, so that --format json stays clean.
    quiet = "-Xlog:disable -Xlog:all=error:stderr"
    if _adopt(path):
        return f"-XX:SharedArchiveFile={path} {quiet}"
    # Written under a name of this process's own, adopted by a later run once complete:
    # two first runs at once never write one file together.
    return f"-XX:ArchiveClassesAtExit={path}.{os.getpid()}.partial {quiet}"


def _default_archive() -> str | None:
    """The archive for this Java and this pyspark, in kcompat's folder of the user's cache
    directory (:mod:`kcompat.cache`: platformdirs', never in a working tree, made private,
    and used only when it is the user's own and nobody else may write it: the JVM maps
    the archive's classes), or None where there is none."""
    import hashlib

    from kcompat.cache import Cache
    from kcompat.cache.location import user_cache_root

    try:
        import pyspark
    except ImportError:
        return None
    root = user_cache_root()
    directory = Cache(root).trusted_directory() if root is not None else None
    if directory is None:
        return None
    java = os.environ.get("JAVA_HOME") or shutil.which("java") or "java"
    key = hashlib.sha256(f"{pyspark.__version__}\0{os.path.realpath(java)}".encode()).hexdigest()
    return os.path.join(directory, f"spark-{pyspark.__version__}-{key[:12]}.jsa")


def _adopt(path: str) -> bool:
    """Whether the archive exists, after making the newest finished ``PATH.PID.partial``
    (its writer gone, untouched for a few seconds) the archive; other finished partial
    files go (one archive is enough). One still being written is left alone."""
    import glob
    import time

    finished = []
    for partial in glob.glob(glob.escape(path) + ".*.partial"):
        pid = partial.rsplit(".", 2)[-2]
        if pid.isdigit() and _alive(int(pid)):
            continue  # its run may still be going
        with contextlib.suppress(OSError):
            if time.time() - os.path.getmtime(partial) > 2:
                finished.append((os.path.getmtime(partial), partial))
    finished.sort()
    if finished and not os.path.isfile(path):
        with contextlib.suppress(OSError):
            os.replace(finished.pop()[1], path)
    for _mtime, stale in finished:
        with contextlib.suppress(OSError):
            os.remove(stale)
    return os.path.isfile(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


#: The local driver JVM compiles with C1 only. A kcompat job's hot code runs in Python
#: workers; the JVM mostly starts up and moves a few batches, and C2's background
#: compilation of Spark's start-up paths cost about 5 s of CPU per run (a third of a trunk
#: audit's) for no gain: measured, C1 alone is 1 to 3 s faster on two cores and no slower
#: for ``corpus build``'s 70,000 rows. ``KCOMPAT_SPARK_JIT=full`` restores the default.
LOCAL_JIT = "-XX:TieredStopAtLevel=1"
#: ... and does not verify the bytecode of the classes it loads from its class path
#: (Spark's own jars, installed with pyspark; the JDK's are never verified): a cold start
#: loads some 20,000 classes, and verifying them cost about 1.5 s of CPU per trunk audit
#: (14.0 s -> 12.3 s measured). ``KCOMPAT_SPARK_JIT=full`` restores this default too.
LOCAL_VERIFY = "-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"


def local_java_options() -> str:
    """The driver JVM's options for a local master: the JIT and verification choices
    (the JVM's defaults with ``KCOMPAT_SPARK_JIT=full``), and CDS if asked."""
    full = os.environ.get("KCOMPAT_SPARK_JIT", "").lower() == "full"
    tuned = "" if full else f"{LOCAL_JIT} {LOCAL_VERIFY}"
    return " ".join(option for option in (tuned, class_data_sharing()) if option)


_MASTER = re.compile(r"local(\[.*\])?|local-cluster\[.*\]|yarn|(spark|k8s)://.+")


def check_master(master: str) -> None:
    """Spark's own rule for a master URL, checked before a JVM is started for nothing."""
    if not _MASTER.fullmatch(master.strip()):
        raise UsageError(
            f"--master {master!r} is not a Spark master: use local, local[N], local[*], "
            "spark://HOST:PORT, yarn or k8s://HOST:PORT"
        )


def check_remote(remote: str) -> None:
    """A Spark Connect address: ``sc://HOST[:PORT][/;params]``, or ``local[N]`` for a
    Connect server this process starts."""
    if not (re.fullmatch(r"sc://[^/\s]+.*", remote.strip()) or _MASTER.fullmatch(remote.strip())):
        raise UsageError(
            f"--remote {remote!r} is not a Spark Connect address: use sc://HOST:PORT "
            "(or local[N] for a local Connect server)"
        )


#: Seconds to wait for a Spark Connect server to accept a connection.
CONNECT_TIMEOUT = 10.0


def reach(remote: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail in one line, within ``timeout``, if nothing listens at ``sc://HOST:PORT``:
    the gRPC client would otherwise retry with growing back-off for minutes."""
    import socket
    from urllib.parse import urlparse

    address = urlparse(remote.split(";", 1)[0].replace("sc://", "http://", 1))
    host, port = address.hostname or "localhost", address.port or 15002
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as err:
        reason = err.strerror or str(err) or type(err).__name__
        raise UsageError(
            f"Spark Connect at {remote}: cannot connect to {host}:{port} ({reason}); "
            "is the server running?"
        ) from None


def require_connect() -> None:
    """Spark Connect's client libraries (grpc and friends), or one line saying so."""
    try:
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except Exception as err:  # pyspark's PySparkImportError names the missing library
        from kcompat.provenance import installed

        raise UsageError(
            f"Spark Connect needs its client libraries ({one_line(err) or type(err).__name__}): "
            f"{installed().install_line('spark')}"
        ) from None


def preflight(master: str | None, remote: str | None) -> str | None:
    """Every check that can fail before a session is made, as one line each: the master
    or Connect address, pyspark, Java (unless the JVM is a remote server's), Connect's
    client libraries, a Connect server that answers. Returns the Connect address in
    force (``--remote`` or ``SPARK_REMOTE``), if any."""
    remote = remote if remote is not None else (os.environ.get("SPARK_REMOTE") or None)
    if master is not None and remote is not None:
        raise UsageError("--master and --remote (or SPARK_REMOTE) exclude each other: give one")
    if master is not None:
        check_master(master)
    if remote is not None:
        check_remote(remote)
    require_spark(java=remote is None or not remote.startswith("sc://"))
    if remote is not None:
        require_connect()
        if remote.startswith("sc://"):
            reach(remote)
    return remote


def spark_session(
    master: str | None = None, app_name: str = "kcompat", remote: str | None = None, **conf: str
) -> Any:
    """Get or create the session (see the module docstring for the defaults).

    ``remote`` (or the ``SPARK_REMOTE`` variable, as pyspark reads it) makes a Spark
    Connect session instead: ``sc://HOST:PORT`` for a running server, ``local[N]`` for
    one started here.
    """
    remote = preflight(master, remote)
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    if remote is not None and remote.startswith("sc://"):
        return _connect_to_server(SparkSession.builder, remote, conf)
    builder = SparkSession.builder.appName(app_name)
    session = _start_jvm(_configured(builder, master, remote, conf))
    from kcompat import interrupt
    from kcompat.pipeline.sparkapi import quiet

    interrupt.reclaim()  # the SparkContext installed its own SIGINT handler
    quiet(session)
    return session


def _with_conf(builder: Any, conf: dict[str, str]) -> Any:
    """The caller's settings, last so they win (``spark__x`` stands for ``spark.x``)."""
    for key, value in conf.items():
        builder = builder.config(key.replace("__", "."), value)
    return builder


def _connect_to_server(builder: Any, remote: str, conf: dict[str, str]) -> Any:
    """A session on a running Spark Connect server: its operator chose its configuration,
    so only the caller's settings are asked for; a failure is one line."""
    builder = _with_conf(builder.remote(remote), conf)
    try:
        return builder.getOrCreate()
    except Exception as err:
        reason = one_line(err) or type(err).__name__
        raise UsageError(f"Spark Connect at {remote}: {reason}") from None


def _configured(builder: Any, master: str | None, remote: str | None, conf: dict[str, str]) -> Any:
    """The builder of a session this process starts: its master (the one given, the
    submitted one, or ``local[*]``), quiet loopback-only settings when local, Arrow and
    worker reuse, then the caller's settings."""
    local = master is None and remote is None and not _under_spark_submit()
    if remote is not None:
        builder = builder.remote(remote)
    elif master is not None:
        builder = builder.master(master)
    elif local:
        builder = builder.master("local[*]")
    if local or (master or remote or "").startswith("local"):
        builder = _local_settings(builder, conf)
    builder = builder.config("spark.sql.execution.arrow.pyspark.enabled", "true")
    builder = builder.config("spark.python.worker.reuse", "true")
    return _with_conf(builder, conf)


def _local_settings(builder: Any, conf: dict[str, str]) -> Any:
    """A local master: no UI or progress bar, everything on 127.0.0.1, and the JVM options
    (class-data sharing) unless the caller gives the driver's own."""
    builder = (
        builder.config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.showConsoleProgress", "false")
    )
    java_options = local_java_options()
    if java_options and "spark__driver__extraJavaOptions" not in conf:
        builder = builder.config("spark.driver.extraJavaOptions", java_options)
    return builder


def _start_jvm(builder: Any) -> Any:
    """Create the session with the JVM's output in Spark's log; if the JVM does not start,
    one line saying why (from that log when it says) and where the log is."""
    log = _log_path()
    start = _size(log)
    try:
        with _jvm_output_to(None if _under_spark_submit() else log):
            return builder.getOrCreate()
    except Exception as err:  # the JVM did not start: say why in one line
        text = str(err).strip().splitlines()
        reason = _reason_in_log(log, start) or (text[-1] if text else type(err).__name__)
        raise UsageError(f"Spark could not start: {reason} (Spark's log: {log})") from None


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


_EXCEPTION = re.compile(
    r"(?:Exception in thread \S+ |Caused by: )?[\w.$]+(?:Exception|Error): (.+)"
)


def _reason_in_log(path: str, start: int) -> str | None:
    """What the JVM said last about why it failed, from the part of its log this start
    wrote (the last exception's message; pyspark itself only says the gateway exited)."""
    try:
        with open(path, "rb") as log:
            log.seek(start)
            text = log.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return None
    reasons = [m.group(1).strip() for m in map(_EXCEPTION.match, text.splitlines()) if m]
    return reasons[-1] if reasons else None


def _log_path() -> str:
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"kcompat-spark-{os.getuid()}.log")


@contextlib.contextmanager
def _jvm_output_to(path: str | None) -> Iterator[None]:
    """Start the JVM with its stderr in a log file: its start-up chatter (module warnings,
    log4j notices) never reaches the user's terminal, and the file is there if Spark fails.

    The JVM inherits file descriptor 2 when pyspark launches it, so fd 2 points at the
    log while the session is created and is restored right after.
    """
    if path is None:
        yield
        return
    from kcompat.interrupt import stderr_to

    with stderr_to(path):
        yield
