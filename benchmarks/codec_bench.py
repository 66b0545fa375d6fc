"""Codec speed: kcompat against kafka-python and kio, and the proof's samples per second.

Run: ``python benchmarks/codec_bench.py [--quick] [--corpus DIR]``. One process, three
messages (bodies only, no headers), each encoded and decoded by:

* kcompat: the compiled codec (``codec_for(layout).encode/decode``), spec-keyed dicts;
* kafka-python 3.x: its lowest spec-driven layer, ``StructField(load_json(name))`` with
  ``encode(dict, version, compact, tagged)`` / ``decode(BytesIO, ...)`` on snake_case dicts;
* kio 0.6.x: ``entity_reader(cls)`` (native, Rust) and ``entity_writer(cls)`` (Python)
  on its generated dataclasses.

Goals: kcompat at least 1.5x faster than kafka-python both ways; kcompat's decode within
4x of kio's native reader. Then the proof over every message version of the Kafka trunk
corpus (base == head), in samples per second.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kcompat.codec import codec_for  # noqa: E402
from kcompat.codec.proof import samples_per_second  # noqa: E402
from kcompat.spec.model import Message  # noqa: E402
from kcompat.spec.resolve import resolve  # noqa: E402
from kcompat.spec.specfile import read_spec  # noqa: E402

BUNDLE = ROOT.parent / "shared" / "corpus" / "kafka-spec-history.bundle"
RECORDS = bytes(range(256)) * 4  # 1 KiB of opaque record-batch bytes


def kafka_python_dir() -> Path:
    import kafka

    return Path(kafka.__file__).parent / "protocol" / "schemas" / "resources"


def load(name: str) -> Message:
    path = kafka_python_dir() / f"{name}.json"
    message = read_spec(str(path), path.read_bytes()).message
    assert message is not None
    return message


def metadata_response() -> dict[str, Any]:
    return {
        "ThrottleTimeMs": 0,
        "Brokers": [
            {"NodeId": i, "Host": f"broker{i}.example.com", "Port": 9092, "Rack": f"rack{i}"}
            for i in (1, 2)
        ],
        "ClusterId": "cluster-abc",
        "ControllerId": 1,
        "Topics": [
            {
                "ErrorCode": 0,
                "Name": "my-topic",
                "TopicId": uuid.UUID(int=0x1234),
                "IsInternal": False,
                "Partitions": [
                    {
                        "ErrorCode": 0,
                        "PartitionIndex": p,
                        "LeaderId": 1 + p % 2,
                        "LeaderEpoch": 7,
                        "ReplicaNodes": [1, 2],
                        "IsrNodes": [1, 2],
                        "OfflineReplicas": [],
                    }
                    for p in range(100)
                ],
                "TopicAuthorizedOperations": -2147483648,
            }
        ],
    }


def produce_request(message: Message, version: int) -> dict[str, Any]:
    layout = resolve(message, version)
    topic = next(lf for lf in layout.root.fields if lf.name == "TopicData")
    assert topic.wire.element is not None and topic.wire.element.struct is not None
    names = {lf.name for lf in topic.wire.element.struct.all_fields()}
    entry: dict[str, Any] = {"PartitionData": [{"Index": p, "Records": RECORDS} for p in range(10)]}
    if "Name" in names:
        entry["Name"] = "my-topic"
    if "TopicId" in names:
        entry["TopicId"] = uuid.UUID(int=0x1234)
    return {"TransactionalId": None, "Acks": -1, "TimeoutMs": 30000, "TopicData": [entry]}


def fetch_response() -> dict[str, Any]:
    partitions = [
        {
            "PartitionIndex": p,
            "ErrorCode": 0,
            "HighWatermark": 1000 + p,
            "LastStableOffset": 1000 + p,
            "LogStartOffset": 0,
            "AbortedTransactions": [],
            "PreferredReadReplica": -1,
            "Records": RECORDS,
        }
        for p in range(10)
    ]
    return {
        "ThrottleTimeMs": 0,
        "ErrorCode": 0,
        "SessionId": 42,
        "Responses": [{"TopicId": uuid.UUID(int=0x1234), "Partitions": partitions}],
    }


def best(fn: Callable[[], object], number: int, repeat: int) -> float:
    """Microseconds per call, best of ``repeat`` runs of ``number`` calls, in CPU time
    (this process's), which a busy shared machine disturbs far less than wall time."""
    runs = timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)
    return min(runs) / number * 1e6


def bench_message(
    name: str, version: int, value: dict[str, Any], number: int, repeat: int
) -> dict[str, float]:
    from kafka.protocol.schemas import StructField, load_json
    from kio.index import load_entity_schema
    from kio.serial import entity_reader, entity_writer
    from kio.static.constants import EntityType

    message = load(name)
    layout = resolve(message, version)
    codec = codec_for(layout)
    value = codec.decode(codec.encode(value))  # every field present, as a decoder returns it
    data = codec.encode(value)
    assert codec.decode(data) == value

    flexible = version in message.flexible_versions
    struct = StructField(load_json(name))
    snake = struct.decode(io.BytesIO(data), version=version, compact=flexible, tagged=flexible)
    assert struct.encode(snake, version=version, compact=flexible, tagged=flexible) == data

    base = name.removesuffix("Request").removesuffix("Response")
    snake_name = "".join("_" + c.lower() if c.isupper() else c for c in base).lstrip("_")
    kind: Any = EntityType.request if name.endswith("Request") else EntityType.response
    cls = load_entity_schema(snake_name, version, kind)
    reader, writer = entity_reader(cls), entity_writer(cls)
    entity, consumed = reader(data, 0)
    assert consumed == len(data)

    def kio_encode() -> bytes:
        buffer = io.BytesIO()
        writer(buffer, entity)
        return buffer.getvalue()

    assert kio_encode() == data
    results = {
        "size": float(len(data)),
        "kcompat encode": best(lambda: codec.encode(value), number, repeat),
        "kcompat decode": best(lambda: codec.decode(data), number, repeat),
        "kafka-python encode": best(
            lambda: struct.encode(snake, version=version, compact=flexible, tagged=flexible),
            number,
            repeat,
        ),
        "kafka-python decode": best(
            lambda: struct.decode(
                io.BytesIO(data), version=version, compact=flexible, tagged=flexible
            ),
            number,
            repeat,
        ),
        "kio encode": best(kio_encode, number, repeat),
        "kio decode": best(lambda: reader(data, 0), number, repeat),
    }
    return results


def trunk_messages(corpus: Path | None) -> tuple[list[Message], Path | None]:
    """The specs of Kafka trunk (every spec directory of the corpus)."""
    holder = None
    if corpus is None:
        if not BUNDLE.is_file():
            return [], None
        holder = Path(tempfile.mkdtemp(prefix="kcompat-bench-"))
        corpus = holder / "kafka"
        subprocess.run(["git", "clone", "-q", str(BUNDLE), str(corpus)], check=True)
    messages = []
    for path in sorted(corpus.rglob("*.json")):
        spec = read_spec(str(path), path.read_bytes())
        message, document = spec.message, spec.document
        if message is None or document is None or not isinstance(document.root, dict):
            continue
        if message.name and "validVersions" in document.root:
            messages.append(message)
    return messages, holder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--corpus", type=Path, help="a checkout of Kafka's spec history")
    args = parser.parse_args()
    number, repeat = (50, 3) if args.quick else (300, 7)

    produce = load("ProduceRequest")
    produce_version = produce.valid_versions.highest
    fetch_version = load("FetchResponse").valid_versions.highest
    cases = [
        ("MetadataResponse", 12, metadata_response(), "1 topic x 100 partitions, 2 brokers"),
        ("ProduceRequest", produce_version, produce_request(produce, produce_version),
         "10 partitions x 1 KiB records"),
        ("FetchResponse", fetch_version, fetch_response(), "10 partitions x 1 KiB records"),
    ]  # fmt: skip
    print(
        f"Python {sys.version.split()[0]}; CPU microseconds per message, best of {repeat}x{number}"
    )
    print()
    header = (
        f"{'message':<22} {'bytes':>6} | {'kcompat':>15} | {'kafka-python':>15} | "
        f"{'kio':>15} | {'vs kafka-python':>15} | {'decode vs kio':>13}"
    )
    print(header)
    print(f"{'':<22} {'':>6} | {'enc':>7} {'dec':>7} | {'enc':>7} {'dec':>7} | "
          f"{'enc':>7} {'dec':>7} | {'enc':>7} {'dec':>7} | {'':>13}")  # fmt: skip
    print("-" * len(header))
    for name, version, value, _ in cases:
        r = bench_message(name, version, value, number, repeat)
        label = f"{name} v{version}"
        enc_gain = r["kafka-python encode"] / r["kcompat encode"]
        dec_gain = r["kafka-python decode"] / r["kcompat decode"]
        kio_ratio = r["kcompat decode"] / r["kio decode"]
        print(
            f"{label:<22} {int(r['size']):>6} | {r['kcompat encode']:>7.1f} "
            f"{r['kcompat decode']:>7.1f} | {r['kafka-python encode']:>7.1f} "
            f"{r['kafka-python decode']:>7.1f} | {r['kio encode']:>7.1f} {r['kio decode']:>7.1f} "
            f"| {enc_gain:>6.1f}x {dec_gain:>6.1f}x | {kio_ratio:>12.2f}x"
        )
    print()
    for name, version, _, shape in cases:
        print(f"  {name} v{version}: {shape}")
    print("  goals: kcompat >= 1.5x kafka-python both ways; kcompat decode <= 4x kio's")

    messages, holder = trunk_messages(args.corpus)
    if holder is not None:
        shutil.rmtree(holder, ignore_errors=True)
    if not messages:
        print("\nproof: no corpus found (pass --corpus DIR)")
        return
    samples_per_second(messages, samples=20, seed=0)  # compiles every codec once
    rate = samples_per_second(messages, samples=20, seed=0)
    print(
        f"\nproof over Kafka trunk ({len(messages)} specs, {rate.versions} message versions, "
        f"base == head, 20 samples per version and direction): {rate.samples} samples in "
        f"{rate.seconds:.1f} s = {rate.per_second:,.0f} samples/s "
        f"({rate.per_cpu_second:,.0f} per CPU second)"
    )


if __name__ == "__main__":
    main()
